import fs from "node:fs";
import path from "node:path";
import { expect, test } from "vitest";
import { tempDir } from "../tests/support/temp";
import { buildIfChanged, fingerprintFile, sourcesFingerprint } from "./build-if-changed";

/** A project: a few sources, and a build that writes build/ as the real one does, counting its runs. */
function project() {
  const root = tempDir();
  const write = (file: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  };
  write("app/root.tsx", "export default 1;");
  write("content/site.md", "# The site");
  write("package-lock.json", "{}");
  write("node_modules/.package-lock.json", '{"packages":{}}');
  let builds = 0;
  let fails = false;
  const build = async () => {
    builds++;
    write("build/server/index.js", `// build ${builds}`);
    if (fails) throw new Error("the build failed");
  };
  return {
    root,
    write,
    build,
    builds: () => builds,
    failNext: (fail: boolean) => {
      fails = fail;
    },
  };
}

test("builds the first time, then only when a source changed", async () => {
  const { root, write, build, builds } = project();
  expect(await buildIfChanged(root, build)).toBe(true);
  expect(await buildIfChanged(root, build)).toBe(false);
  expect(builds()).toBe(1);

  write("content/site.md", "# The site, renamed");
  expect(await buildIfChanged(root, build)).toBe(true);
  write("app/new-module.ts", "export {};");
  expect(await buildIfChanged(root, build)).toBe(true);
  write("node_modules/.package-lock.json", '{"packages":{"x":{}}}');
  expect(await buildIfChanged(root, build)).toBe(true);
  fs.rmSync(path.join(root, "app/new-module.ts"));
  expect(await buildIfChanged(root, build)).toBe(true);
  expect(await buildIfChanged(root, build)).toBe(false);
  expect(builds()).toBe(5);
});

test("outputs, data and other packages' files are not sources", () => {
  const { root, write } = project();
  const before = sourcesFingerprint(root);
  write("build/client/app.js", "built");
  write("data/pglite/PG_VERSION", "18");
  write("node_modules/react/index.js", "changed");
  write("test-results/report.json", "{}");
  expect(sourcesFingerprint(root)).toBe(before);
  write("public/favicon.svg", "<svg/>");
  expect(sourcesFingerprint(root)).not.toBe(before);
});

test("a failed build leaves no fingerprint: the next start builds again", async () => {
  const { root, write, build, builds, failNext } = project();
  await buildIfChanged(root, build);
  write("app/root.tsx", "export default 2;");
  failNext(true);
  await expect(buildIfChanged(root, build)).rejects.toThrow(/the build failed/);
  expect(fs.existsSync(path.join(root, fingerprintFile))).toBe(false);
  failNext(false);
  expect(await buildIfChanged(root, build)).toBe(true);
  expect(builds()).toBe(3);
});

test("a build whose output is gone is built again", async () => {
  const { root, build, builds } = project();
  await buildIfChanged(root, build);
  fs.rmSync(path.join(root, "build/server"), { recursive: true });
  expect(await buildIfChanged(root, build)).toBe(true);
  expect(builds()).toBe(2);
});
