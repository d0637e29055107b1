import { renderToString } from "react-dom/server";
import { createRoutesStub } from "react-router";
import { describe, expect, it } from "vitest";
import { NavLink } from "./link";

/** The links of a menu as rendered at `at`: each one's address and whether it is marked current. */
function current(at: string) {
  const menu = () => (
    <nav>
      <NavLink to="/" end className={({ isActive }) => (isActive ? "on" : "off")} />
      <NavLink to="/wiki" className="plain" />
      <NavLink to="/admin" end />
    </nav>
  );
  const Stub = createRoutesStub([{ path: "*", Component: menu }]);
  const html = renderToString(<Stub initialEntries={[at]} />);
  return [...html.matchAll(/<a ([^>]*)>/g)].map(([, attributes = ""]) => ({
    href: /href="([^"]*)"/.exec(attributes)?.[1],
    current: attributes.includes('aria-current="page"'),
    className: /class="([^"]*)"/.exec(attributes)?.[1],
  }));
}

describe("NavLink", () => {
  it("marks its own path as the current page, and the paths below it unless `end`", () => {
    expect(current("/").map((link) => link.current)).toEqual([true, false, false]);
    expect(current("/wiki").map((link) => link.current)).toEqual([false, true, false]);
    expect(current("/wiki/characters/ayla").map((link) => link.current)).toEqual([false, true, false]);
    expect(current("/admin/chapters").map((link) => link.current)).toEqual([false, false, false]);
    expect(current("/admin").map((link) => link.current)).toEqual([false, false, true]);
  });

  it("does not take a path that only starts with the same letters for one below it", () => {
    expect(current("/wikipedia").map((link) => link.current)).toEqual([false, false, false]);
  });

  it("gives a class function its state and keeps a plain class as it is", () => {
    expect(current("/").map((link) => link.className)).toEqual(["on", "plain", undefined]);
    expect(current("/wiki")[0]?.className).toBe("off");
  });
});
