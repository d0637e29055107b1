import type { ReactNode } from "react";

/** A decorative 24×24 stroke icon (stroke styles: `.icon` in app.css): the text beside it (or an aria-label) carries the meaning. */
function Icon({
  className,
  filled = false,
  children,
}: {
  className: string;
  filled?: boolean;
  children: ReactNode;
}) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className={`icon ${filled ? "icon-filled " : ""}${className}`}
    >
      {children}
    </svg>
  );
}

type IconProps = { className?: string };

export const CoinIcon = ({ className = "h-4 w-4" }: IconProps) => (
  <Icon className={className}>
    <circle cx="12" cy="12" r="9" />
    <circle cx="12" cy="12" r="5" strokeOpacity="0.6" />
  </Icon>
);

export const LockIcon = ({ className = "h-4 w-4" }: IconProps) => (
  <Icon className={className}>
    <rect x="5" y="11" width="14" height="9" rx="2" />
    <path d="M8 11V8a4 4 0 0 1 8 0v3" />
  </Icon>
);

export const ListIcon = ({ className = "h-5 w-5" }: IconProps) => (
  <Icon className={className}>
    <path d="M8 6h13M8 12h13M8 18h13M3 6h.01M3 12h.01M3 18h.01" />
  </Icon>
);

export const BookmarkIcon = ({ className = "h-5 w-5", filled = false }: IconProps & { filled?: boolean }) => (
  <Icon className={className} filled={filled}>
    <path d="M6 3h12v18l-6-4-6 4z" />
  </Icon>
);

export const SlidersIcon = ({ className = "h-5 w-5" }: IconProps) => (
  <Icon className={className}>
    <path d="M4 6h10M18 6h2M4 12h4M12 12h8M4 18h12" />
    <circle cx="16" cy="6" r="2" />
    <circle cx="10" cy="12" r="2" />
    <circle cx="18" cy="18" r="2" />
  </Icon>
);

export const MenuIcon = ({ className = "h-6 w-6" }: IconProps) => (
  <Icon className={className}>
    <path d="M4 7h16M4 12h16M4 17h16" />
  </Icon>
);

export const CloseIcon = ({ className = "h-5 w-5" }: IconProps) => (
  <Icon className={className}>
    <path d="M6 6l12 12M18 6L6 18" />
  </Icon>
);
