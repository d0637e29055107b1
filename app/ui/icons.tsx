/**
 * Decorative 24×24 stroke icons, drawn by the stylesheet (`.icon` in app.css: each is a mask painted in the
 * text colour), so a page carries a short class name, not the drawing. The text beside an icon (or an
 * aria-label) carries the meaning; an icon is an empty element, which assistive technology has nothing to read
 * in (so it needs no `aria-hidden`). Sizes: 1.25 rem unless a class says otherwise.
 */
function icon(name: string) {
  return ({ className }: { className?: string }) => (
    <span className={`icon icon-${name}${className ? ` ${className}` : ""}`} />
  );
}

export const CoinIcon = icon("coin");
export const LockIcon = icon("lock");
export const ListIcon = icon("list");
export const SlidersIcon = icon("sliders");
export const MenuIcon = icon("menu");
export const CloseIcon = icon("close");
export const SunIcon = icon("sun");
export const MoonIcon = icon("moon");
export const LinkIcon = icon("link");
const Bookmark = icon("bookmark");
const BookmarkFilled = icon("bookmark-filled");

export const BookmarkIcon = ({ filled = false, className }: { filled?: boolean; className?: string }) =>
  filled ? <BookmarkFilled className={className} /> : <Bookmark className={className} />;
