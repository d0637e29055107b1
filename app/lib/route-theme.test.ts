import { describe, expect, it } from "vitest";
import { themeForPath } from "./route-theme";

describe("themeForPath", () => {
  it.each([
    ["/", "home"],
    ["/chapters", "chapters"],
    ["/wiki/characters", "characters"],
    ["/wiki/characters/ilse-marrow", "characters"],
    ["/wiki/world", "world"],
    ["/wiki/items/moonglass-vials", "items"],
    ["/shop", "shop"],
    ["/shop/product/3", "shop"],
    ["/about", "about"],
  ])("%s uses the %s theme", (path, theme) => {
    expect(themeForPath(path)).toBe(theme);
  });

  it.each(["/toc", "/wiki", "/fundraiser", "/chapter/1", "/shopping", "/aboutness", "/nowhere"])(
    "%s falls back to the home theme",
    (path) => {
      expect(themeForPath(path)).toBe("home");
    },
  );
});
