/**
 * The head script: runs before first paint, as the server wrote it into the page (app/root.tsx). The build
 * turns this function into minified text (`?inline-script`, app/lib/inline-script.ts), so it reads only its
 * arguments and the browser's globals: nothing imported, nothing from this module.
 *
 * It applies a visitor's reading settings (as `showSettings` does), follows the system colour scheme until a
 * theme is chosen, and on a repeat visit (the faces are in the browser's cache by then) asks for the font
 * stylesheet before painting, so the text does not swap faces on every page (ADR 11).
 * Once the browser has painted the page (its first `paint` entry: the request then comes after the paint in
 * any trace, where `requestAnimationFrame` or `load` can come before it), it imports the boot script, which
 * starts the app (AppScripts, ADR 13), and on a first visit loads the faces with the Font Loading API and
 * adds them together once all have arrived: the page is laid out again once, not once for the font
 * stylesheet and once more for each face as it lands (ADR 55). It reads them from the font stylesheet,
 * loaded for print (so none of its faces applies to the screen); where that fails, the stylesheet as before.
 * A tab in the background starts it when first shown. And a view transition the browser aborts (the
 * viewport changed, the tab was hidden) rejects its `ready` promise, which React Router leaves unhandled:
 * the transition is decoration and the navigation completes regardless, so the rejection is caught. It comes
 * with every page: what can wait for the cached boot script is there (the time zone, app/boot.ts).
 */
export function headScript(fontsHref: string, bootHref: string, settingKeys: string[]) {
  const root = document.documentElement;
  /** The faces are in the browser's cache from now on (storage may be refused: private windows). */
  const rememberFonts = () => {
    try {
      localStorage.fonts = 1;
    } catch {}
  };
  const addFontStylesheet = (
    blocking: string,
    media = "all",
    onload: (this: HTMLLinkElement) => void = rememberFonts,
  ) =>
    document.head.append(
      Object.assign(document.createElement("link"), {
        rel: "stylesheet",
        href: fontsHref,
        blocking,
        media,
        onload,
      }),
    );

  let fontsCached: string | undefined;
  try {
    // A signed-in reader's settings are on the element already, rendered by the server.
    // Numbers among them (the font size) are written as text by the dataset.
    const settings: Record<string, string> | false =
      !root.dataset.fontSize && JSON.parse(localStorage.reading || "{}").settings;
    if (settings) for (const key of settingKeys) if (settings[key]) root.dataset[key] = settings[key];
    fontsCached = localStorage.fonts;
    if (fontsCached) addFontStylesheet("render");
  } catch {}

  const loadFacesTogether = () =>
    addFontStylesheet("", "print", function () {
      // The font stylesheet holds only `@font-face` rules, whose style has the face's `src` descriptor.
      const rules = [...(this.sheet as CSSStyleSheet).cssRules] as CSSFontFaceRule[];
      Promise.all(
        rules.map(({ style }) =>
          new FontFace(
            style.fontFamily.replaceAll('"', ""),
            (style as CSSStyleDeclaration & { src: string }).src,
            {
              weight: style.fontWeight,
              style: style.fontStyle,
            },
          ).load(),
        ),
      ).then(
        (faces) => {
          for (const face of faces) document.fonts.add(face);
          rememberFonts();
        },
        () => addFontStylesheet(""),
      );
    });

  if (!/(^|; )theme=/.test(document.cookie) && matchMedia("(prefers-color-scheme: dark)").matches)
    root.classList.add("dark");

  const startViewTransition = document.startViewTransition?.bind(document);
  if (startViewTransition)
    document.startViewTransition = (update) => {
      const transition = startViewTransition(update);
      transition.ready.catch(() => {});
      return transition;
    };

  new PerformanceObserver((_, observer) => {
    observer.disconnect();
    setTimeout(() => {
      if (!fontsCached) loadFacesTogether();
      import(/* @vite-ignore */ bootHref);
    });
  }).observe({ type: "paint", buffered: true });
}
