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
      days: { tier: "observer", until: "2027-01-31T12:00:00Z", daysLeft: 150 },
    });
    expect(html).toContain(en.tiers.observer);
    expect(html).toContain("January 31, 2027");
    expect(html).toContain("Total spent: $15");
    expect(html).toContain(en.membership.upgrade);
    expect(html).toContain("150 days left");
  });

  it("hides the upgrade link for first_human", () => {
    const html = render({
      tier: "first_human",
      source: "spend",
      until: null,
      totalSpentCents: 100_00,
      days: null,
    });
    expect(html).toContain(en.tiers.first_human);
    expect(html).not.toContain(en.membership.upgrade);
    expect(html).not.toContain('data-testid="membership-days"');
  });

  it("shows the membership days bought beside a higher tier from spending", () => {
    const html = render({
      tier: "analyst",
      source: "spend",
      until: null,
      totalSpentCents: 65_00,
      days: { tier: "observer", until: "2027-04-24T12:00:00Z", daysLeft: 150 },
    });
    expect(html).toContain(en.tiers.analyst);
    expect(html).toContain("Observer membership from your purchases: 150 days left, until April 24, 2027.");
  });
});
