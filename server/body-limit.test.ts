import { describe, expect, it } from "vitest";
import { UPLOAD_MAX_BYTES } from "~/features/uploads/limits";
import { bodyLimitFor, FORM_LIMIT } from "./body-limit";

describe("bodyLimitFor", () => {
  it("gives the admin's upload route one 10 MB file and its multipart envelope, and nothing more", () => {
    for (const path of ["/admin/uploads", "/admin/uploads.data"]) {
      expect(bodyLimitFor(path)).toBeGreaterThan(UPLOAD_MAX_BYTES);
      expect(bodyLimitFor(path)).toBeLessThanOrEqual(UPLOAD_MAX_BYTES + 512 * 1024);
    }
    for (const path of ["/admin/uploads/1", "/admin", "/admin/uploadsx", "/x/admin/uploads"])
      expect(bodyLimitFor(path), path).toBe(FORM_LIMIT);
  });
});
