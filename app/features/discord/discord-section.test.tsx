import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import { I18nProvider } from "~/i18n/react";
import { DiscordSection } from "./discord-section";
import type { LinkOutcome } from "./outcomes";
import type { DiscordSectionData } from "./queries.server";

function render(data: DiscordSectionData, outcome?: LinkOutcome) {
  const Stub = createRoutesStub([
    { path: "/settings", Component: () => <DiscordSection data={data} outcome={outcome} /> },
  ]);
  return renderToString(
    <I18nProvider language="en" catalogue={en}>
      <Stub initialEntries={["/settings"]} />
    </I18nProvider>,
  );
}

// The label is the site settings' (content/site.md), in the author's language: any text does.
const invite = { label: en.discord.title, url: "https://discord.gg/example" };

describe("the Discord section", () => {
  it("shows only the community invite when the perk is not configured", () => {
    const html = render({ invite });
    expect(html).toContain(invite.label);
    expect(html).not.toContain(en.discord.link);
    expect(html).not.toContain(en.discord.intro);
    expect(html).not.toContain('action="/settings/discord"');
  });

  it("offers to link, and names the tiers to a reader whose tier gives no role", () => {
    const html = render({ invite: null, perk: { tierHasRole: false, link: null } });
    expect(html).toContain(en.discord.notLinked);
    expect(html).toContain(en.discord.link);
    expect(html).toContain(en.discord.tiers);
  });

  it("shows the linked account, its role's state and the way to unlink", () => {
    const linked = { username: "nyx", inGuild: true, pending: false };
    const html = render({ invite, perk: { tierHasRole: true, link: linked } }, "linked");
    expect(html).toContain("Linked as nyx.");
    expect(html).toContain(en.discord.roleGiven);
    expect(html).toContain(en.discord.unlink);
    expect(html).toContain(en.discord.outcomes.linked);
    expect(render({ invite, perk: { tierHasRole: true, link: { ...linked, pending: true } } })).toContain(
      en.discord.pending,
    );
    expect(render({ invite, perk: { tierHasRole: true, link: { ...linked, inGuild: false } } })).toContain(
      en.discord.notInGuild,
    );
  });

  it("shows a failed link as an alert", () => {
    const html = render({ invite, perk: { tierHasRole: true, link: null } }, "taken");
    expect(html).toContain('role="alert"');
    expect(html).toContain(en.discord.outcomes.taken);
  });
});
