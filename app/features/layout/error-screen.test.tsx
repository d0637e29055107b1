import { renderToString } from "react-dom/server";
import { I18nextProvider } from "react-i18next";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { createI18n } from "~/i18n/i18n";
import en from "~/i18n/locales/en.json";
import es from "~/i18n/locales/es.json";
import { ErrorScreen } from "./error-screen";

function render(language: "en" | "es") {
  const Stub = createRoutesStub([{ path: "/", Component: () => <ErrorScreen /> }]);
  const i18n = createI18n(language, { en: { translation: en }, es: { translation: es } });
  return renderToString(
    <I18nextProvider i18n={i18n}>
      <Stub />
    </I18nextProvider>,
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
});
