import { describe, expect, it } from "vitest";
import {
  checkCoreModules,
  checkProject,
  checkRouteModules,
  checkServerKeys,
  checkSource,
  compareCatalogues,
} from "./check-i18n";

describe("compareCatalogues", () => {
  const en = { a: { title: "Hello {{name}}" }, coins_one: "{{count}} coin", coins_other: "{{count}} coins" };

  it("accepts a complete translation with the plural forms of its language", () => {
    const fr = {
      a: { title: "Bonjour {{name}}" },
      coins_one: "{{count}} pièce",
      coins_many: "{{count}} pièces",
      coins_other: "{{count}} pièces",
    };
    expect(compareCatalogues(en, fr, "fr")).toEqual([]);
    expect(compareCatalogues(en, { a: { title: "{{name}}さん" }, coins_other: "{{count}}枚" }, "ja")).toEqual(
      [],
    );
  });

  it("reports missing keys, plural forms and variables", () => {
    expect(compareCatalogues(en, { coins_one: "x", coins_other: "{{count}}" }, "es")).toEqual([
      "es: missing key a.title",
      "es: missing plural form coins_many",
    ]);
    expect(compareCatalogues(en, { a: { title: "Hola" }, coins_other: "{{count}}" }, "ja")).toEqual([
      "ja: a.title lacks {{name}}",
    ]);
  });
});

describe("checkSource", () => {
  const keys = new Set(["known.key"]);

  it("finds text and readable attributes outside the catalogue, and unknown keys", () => {
    const code = `export const A = () => <div title="Hover text"><img alt={"A moon"} /><p>Hello there</p>{t("known.key")}{t("missing.key")}<span className="x">→ 404</span></div>;`;
    const problems = checkSource("a.tsx", code, keys);
    expect(problems).toHaveLength(4);
    expect(problems.join("\n")).toMatch(/Hello there/);
    expect(problems.join("\n")).toMatch(/title="Hover text"/);
    expect(problems.join("\n")).toMatch(/alt="A moon"/);
    expect(problems.join("\n")).toMatch(/unknown message key "missing.key"/);
  });
});

describe("checkSource: English assembled in code", () => {
  const keys = new Set(["known.key"]);

  it("finds words in literals and templates a page renders, chosen, joined or given as a shown label", () => {
    const component = `export const A = ({ paid, n, tier }) => (
      <p aria-label={\`\${n} coins\`}>
        {paid ? "Paid" : t("known.key")}
        {\`\${n} coins\`}
        {n > 1 && "many"}
        {tier.name + " (monthly)"}
      </p>
    );`;
    const problems = checkSource("a.tsx", component, keys);
    expect(problems).toHaveLength(5);
    expect(problems.join("\n")).toMatch(/a\.tsx:2: aria-label assembled outside the catalogue/);
    expect(problems.join("\n")).toMatch(/"Paid"/);
    expect(problems.join("\n")).toMatch(/"many"/);
    expect(problems.join("\n")).toMatch(/" \(monthly\)"/);

    const loader = `export const activity = (payment) => [
      { kind: "purchase", label: "One-off gift" },
      { kind: "purchase", label: \`\${payment.tier} (monthly)\` },
    ];`;
    expect(checkSource("app/features/x/queries.server.ts", loader, keys)).toEqual([
      'app/features/x/queries.server.ts:2: label: assembled outside the catalogue: "One-off gift"',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: the problem quotes the template's source
      "app/features/x/queries.server.ts:3: label: assembled outside the catalogue: `${payment.tier} (monthly)`",
    ]);
  });

  it("leaves paths, names, keys and punctuation alone", () => {
    const code = `export const B = ({ slug, slot, n, tier }) => (
      <Link to={\`/wiki/\${slug}\`} className={\`text-sm \${n ? "font-bold" : ""}\`}>
        {t(\`tiers.\${tier}\`)}{" · "}{n}{\`#\${n}\`}
        {format.money(n, "USD")}
      </Link>
    );
    const field = { caption: \`artwork\${slot}Caption\`, label: t("known.key") };`;
    expect(checkSource("b.tsx", code, keys)).toEqual([]);
  });
});

/** A project of the given files, as the checks read it. */
const project = (files: Record<string, string>) => (file: string) => files[file];

describe("checkCoreModules", () => {
  const keys = new Set(["nav.home", "reader.title", "auth.title", "shop.filters.all"]);
  const others = {
    "app/routes/chapter.tsx": "export default function Chapter() { return null; }",
    "app/routes/not-found.tsx": "export default function NotFound() { return null; }",
  };

  it("accepts core keys, and what only the server or types bring", () => {
    const read = project({
      ...others,
      "app/root.tsx": `import type { Props } from "./features/auth/types";
        import { signIn } from "~/features/auth/session.server";
        import { Menu } from "./menu";
        export const Layout = () => t("nav.home");`,
      "app/menu.tsx": `export const Menu = () => [t("reader.title"), t(\`reader.\${size}\`)];`,
      "app/features/auth/types.ts": 'export type Props = { title: "auth.title" };',
      "app/features/auth/session.server.ts": 'export const signIn = () => "auth.title";',
    });
    expect(checkCoreModules(read, keys)).toEqual([]);
  });

  it("reports keys outside the core in the modules the core pages import, as strings or templates", () => {
    const read = project({
      ...others,
      "app/root.tsx": 'import { Menu } from "./features/menu";\nexport const Layout = () => t("nav.home");',
      "app/features/menu.tsx": `import "./items";
        export const Menu = () => t(\`shop.filters.\${filter}\`);`,
      "app/features/items.ts": 'export const items = [{ key: "auth.title" }];',
    });
    expect(checkCoreModules(read, keys)).toEqual([
      'app/features/menu.tsx:2: "shop.filters." is used by a core page but not in a core namespace',
      'app/features/items.ts:1: "auth.title" is used by a core page but not in a core namespace',
    ]);
  });

  it("accepts a part loaded later that brings the full catalogue with it, not one that does not", () => {
    const read = project({
      ...others,
      "app/root.tsx":
        'const Sheet = () => import("./features/sheet");\nconst Panel = () => import("./features/panel");',
      "app/features/sheet.tsx":
        'import "~/i18n/full-catalogue";\nexport const Sheet = () => t("auth.title");',
      "app/features/panel.tsx": 'export const Panel = () => t("auth.title");',
      "app/i18n/full-catalogue.ts": "await loadAll();",
    });
    expect(checkCoreModules(read, keys)).toEqual([
      'app/features/panel.tsx:1: "auth.title" is used by a core page but not in a core namespace',
    ]);
  });

  it("reports a core module that imports the full catalogue", () => {
    const read = project({
      ...others,
      "app/root.tsx": 'import "./features/menu";',
      "app/features/menu.tsx": 'import "~/i18n/full-catalogue";',
      "app/i18n/full-catalogue.ts": "await loadAll();",
    });
    expect(checkCoreModules(read, keys)).toEqual([
      "app/features/menu.tsx: imports app/i18n/full-catalogue.ts on the core pages",
    ]);
  });
});

describe("checkServerKeys", () => {
  const keys = new Set(["mail.welcome.subject", "nav.home"]);

  it("reports keys of the server's namespaces outside .server modules", () => {
    const code = `export const subject = t("mail.welcome.subject");
export const body = t(\`mail.\${key}.body\`);`;
    expect(checkServerKeys("app/features/mail/preview.tsx", code, keys)).toEqual([
      'app/features/mail/preview.tsx:1: "mail.welcome.subject" is in a namespace only the server has',
      'app/features/mail/preview.tsx:2: "mail." is in a namespace only the server has',
    ]);
    expect(checkServerKeys("app/features/mail/templates.server.ts", code, keys)).toEqual([]);
  });
});

describe("checkRouteModules", () => {
  it("reports a page outside the core that does not import the full catalogue", () => {
    const read = project({
      "app/routes.ts": `export default [
        index("routes/home.tsx"), route("login", "routes/login.tsx"), route("logout", "routes/logout.ts"),
        route("chapter/:id", "routes/chapter.tsx"),
      ];`,
      "app/routes/home.tsx": 'import "~/i18n/full-catalogue";\nexport default function Home() {}',
      "app/routes/login.tsx": "export default function Login() {}",
      "app/routes/logout.ts": "export function action() {}",
      "app/routes/chapter.tsx": "export default function Chapter() {}",
    });
    expect(checkRouteModules(read)).toEqual([
      'app/routes/login.tsx: a page outside the core lacks import "~/i18n/full-catalogue"',
    ]);
  });
});

describe("the project's catalogues and components", () => {
  it("are complete in every language and bypass nothing", () => {
    expect(checkProject(process.cwd())).toEqual([]);
  });
});
