import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { tempDir } from "../../tests/support/temp";
import { modulesPattern } from "./chunk-groups";

test("a chunk group's pattern takes its modules and no others, and names no missing one", () => {
  const root = tempDir();
  fs.mkdirSync(path.join(root, "app/ui"), { recursive: true });
  for (const file of ["app/root.tsx", "app/entry.client.tsx", "app/ui/button.ts"])
    fs.writeFileSync(path.join(root, file), "");
  const pattern = modulesPattern(root, ["app/root", "app/entry.client", "app/ui/button"]);
  expect(
    ["/r/app/root.tsx", "/r/app/entry.client.tsx", "/r/app/ui/button.ts?v=1"].filter((id) =>
      pattern.test(id),
    ),
  ).toHaveLength(3);
  expect(
    ["/r/app/root.css", "/r/app/rootx.tsx", "/r/app/entryxclient.tsx", "/r/app/ui/button.test.ts"].some(
      (id) => pattern.test(id),
    ),
  ).toBe(false);
  expect(() => modulesPattern(root, ["app/root", "app/ui/link"])).toThrow(/No module app\/ui\/link/);
});
