import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { afterEach, describe, expect, it, vi } from "vitest";
import en from "~/i18n/locales/en.json";
import { I18nProvider } from "~/i18n/react";
import { SocialButtons } from "./social-buttons";

/** The configuration is read once per module instance: each case loads the modules afresh. */
async function configuredWith(env: Record<string, string>) {
  vi.resetModules();
  for (const name of ["DISCORD", "GOOGLE"]) {
    vi.stubEnv(`${name}_CLIENT_ID`, "");
    vi.stubEnv(`${name}_CLIENT_SECRET`, "");
  }
  for (const [name, value] of Object.entries(env)) vi.stubEnv(name, value);
  const { listConfiguredProviders } = await import("./oauth-providers.server");
  return listConfiguredProviders();
}

function render(providers: ("discord" | "google")[]) {
  const Stub = createRoutesStub([
    { path: "/login", Component: () => <SocialButtons providers={providers} redirectTo="/account" /> },
  ]);
  return renderToString(
    <I18nProvider language={"en"} catalogue={en}>
      <Stub initialEntries={["/login"]} />
    </I18nProvider>,
  );
}

afterEach(() => {
  vi.unstubAllEnvs();
  vi.resetModules();
});

describe("social sign-in buttons", () => {
  it("are absent when no provider is configured", async () => {
    const providers = await configuredWith({});
    expect(providers).toEqual([]);
    const html = render(providers);
    expect(html).not.toContain("Continue with");
    expect(html).not.toContain("/auth/");
  });

  it("appear for each configured provider (client id and secret both set), posting to /auth/<provider>", async () => {
    expect(await configuredWith({ DISCORD_CLIENT_ID: "id" })).toEqual([]);
    const providers = await configuredWith({ DISCORD_CLIENT_ID: "id", DISCORD_CLIENT_SECRET: "secret" });
    expect(providers).toEqual(["discord"]);
    const html = render(providers);
    const form = /<form[^>]*>/.exec(html)?.[0] ?? "";
    expect(form).toContain('action="/auth/discord"');
    expect(form).toContain('method="post"');
    expect(html).toContain("Continue with Discord");
    expect(html).not.toContain("Google");

    const both = await configuredWith({
      DISCORD_CLIENT_ID: "id",
      DISCORD_CLIENT_SECRET: "secret",
      GOOGLE_CLIENT_ID: "id",
      GOOGLE_CLIENT_SECRET: "secret",
    });
    expect(both).toEqual(["discord", "google"]);
    expect(render(both)).toContain("Continue with Google");
  });
});
