import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import en from "~/i18n/locales/en.json";
import es from "~/i18n/locales/es.json";
import { I18nProvider } from "~/i18n/react";
import { ErrorScreen } from "./error-screen";
import { OutageScreen } from "./outage-screen";

function render(language: "en" | "es", unavailable = false) {
  const Screen = unavailable ? OutageScreen : ErrorScreen;
  const Stub = createRoutesStub([{ path: "/", Component: () => <Screen /> }]);
  return renderToString(
    <I18nProvider language={language} catalogue={language === "es" ? es : en}>
      <Stub />
    </I18nProvider>,
  );
}

describe("ErrorScreen", () => {
  it("shows the spec's texts and buttons", () => {
    const html = render("en");
    expect(html).toContain("Oops! Something went wrong");
    expect(html).toContain(
      "We encountered an unexpected error. Don&#x27;t worry, your reading progress has been saved.",
    );
    expect(html).toMatch(/<button[^>]*>Try Again<\/button>/);
    expect(html).toMatch(/<a[^>]*href="\/"[^>]*>Go Home<\/a>/);
  });

  it("is translated", () => {
    const html = render("es");
    expect(html).not.toContain("Oops! Something went wrong");
    expect(html).toContain(es.error.title);
  });

  it("names the page in its title, in the page's language", () => {
    // Without a document React renders the title in place; in a page it hoists it into the head.
    expect(render("en")).toContain("<title>Oops! Something went wrong</title>");
    expect(render("es")).toContain(`<title>${es.error.title}</title>`);
  });

  it("asks to try again in a moment when the database is out of reach, translated", () => {
    const html = render("es", true);
    expect(html).toContain(es.outage.title);
    expect(html).toContain(es.outage.body);
    expect(html).not.toContain(es.error.title);
    expect(html).toContain(es.error.tryAgain);
  });
});
