import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import { I18nProvider } from "~/i18n/react";
import { MembershipSummary, type MembershipView } from "./membership-summary";

function render(membership: MembershipView) {
  const Stub = createRoutesStub([
    { path: "/account", Component: () => <MembershipSummary membership={membership} currency="USD" /> },
  ]);
  return renderToString(
    <I18nProvider language="en" catalogue={en}>
      <Stub initialEntries={["/account"]} />
    </I18nProvider>,
  );
}

describe("membership summary", () => {
  it("shows the tier, why and until when, with a way up below the top tier", () => {
    const html = render({
      tier: "observer",
      source: "grant",
      until: "2027-01-31T12:00:00Z",
      totalSpentCents: 1500,
    });
    expect(html).toContain(en.tiers.observer);
    expect(html).toContain("January 31, 2027");
    expect(html).toContain("Total spent: $15");
    expect(html).toContain(en.membership.upgrade);
  });

  it("hides the upgrade link for first_human", () => {
    const html = render({ tier: "first_human", source: "spend", until: null, totalSpentCents: 100_00 });
    expect(html).toContain(en.tiers.first_human);
    expect(html).not.toContain(en.membership.upgrade);
  });
});
