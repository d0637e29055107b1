const shapes = {
  text: "h-4 w-full rounded",
  circular: "aspect-square rounded-full",
  rectangular: "h-24 w-full rounded-lg",
} as const;

/** A placeholder block shown while the data it stands for is loading. */
export function Skeleton({
  variant = "text",
  className = "",
}: {
  variant?: keyof typeof shapes;
  className?: string;
}) {
  return (
    <div
      aria-hidden="true"
      className={`${shapes[variant]} animate-pulse bg-[color:var(--line)] motion-reduce:animate-none ${className}`}
    />
  );
}
