import cinzel600 from "@fontsource/cinzel/files/cinzel-latin-600-normal.woff2?url";
import cormorant400Italic from "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-400-italic.woff2?url";
import cormorant400 from "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-400-normal.woff2?url";
import cormorant600 from "@fontsource/cormorant-garamond/files/cormorant-garamond-latin-600-normal.woff2?url";

/**
 * The site's faces as the head script loads them on a first visit (app/root.tsx, ADR 55): family, file,
 * weight, style. The same files as `app/fonts.css` declares (the bundler gives both the same address), so
 * what one path loads the other finds in the browser's cache.
 */
export const faces: [family: string, url: string, weight: string, style: string][] = [
  ["Cinzel", cinzel600, "600", "normal"],
  ["Cormorant Garamond", cormorant400, "400", "normal"],
  ["Cormorant Garamond", cormorant600, "600", "normal"],
  ["Cormorant Garamond", cormorant400Italic, "400", "italic"],
];
