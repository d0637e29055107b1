import { describe, expect, it } from "vitest";
import { mapProfile, usernameFromProfile } from "./oauth.server";
import { usernameSchema } from "./schemas";

describe("usernameFromProfile", () => {
  it.each([
    [["nyx.of_the-veil"], "nyx.of_the-veil"],
    [["Ilse Varga"], "Ilse_Varga"],
    [["  José  Ñúñez! "], "José_Ñúñez"],
    [["黒崎 蓮"], "黒崎_蓮"],
    [["ab", "ab@example"], "ab_example"],
    [["a", null, "x"], "reader"],
    [["!!!"], "reader"],
    [["A".repeat(40)], "A".repeat(30)],
    [["𠮷".repeat(40)], "𠮷".repeat(30)],
  ])("%j -> %s", (candidates, expected) => {
    const name = usernameFromProfile(candidates);
    expect(name).toBe(expected);
    expect(usernameSchema.safeParse(name).success).toBe(true);
  });
});

describe("mapProfile", () => {
  it("keeps a Discord e-mail only when verified", () => {
    const user = { id: "80351110224678912", username: "nelly", global_name: "Nelly", email: "n@example.com" };
    expect(mapProfile("discord", { ...user, verified: true })).toMatchObject({
      subject: "80351110224678912",
      displayName: "Nelly",
      email: "n@example.com",
    });
    expect(mapProfile("discord", { ...user, verified: false })?.email).toBeUndefined();
    expect(mapProfile("discord", { username: "no id" })).toBeUndefined();
  });

  it("keeps a Google e-mail only when verified", () => {
    const user = { sub: "1098", name: "Ilse Varga", email: "ilse@example.com" };
    expect(mapProfile("google", { ...user, email_verified: true })?.email).toBe("ilse@example.com");
    expect(mapProfile("google", { ...user, email_verified: "true" })?.email).toBe("ilse@example.com");
    expect(mapProfile("google", { ...user, email_verified: false })?.email).toBeUndefined();
    expect(mapProfile("google", user)?.email).toBeUndefined();
    expect(
      mapProfile("google", { ...user, email: "not an address", email_verified: true })?.email,
    ).toBeUndefined();
  });
});
