/** The chapter's artwork for one side of the text, with captions. The first image before the text loads first. */
export function Artwork({
  items,
  position,
}: {
  items: { url: string; position: string; caption: string }[];
  position: "before" | "after";
}) {
  return items
    .filter((art) => art.position === position)
    .map((art) => (
      <figure key={art.url} className={position === "before" ? "mb-8" : "mt-8"}>
        <img
          src={art.url}
          alt={art.caption}
          width={1200}
          height={600}
          className="w-full rounded-xl"
          {...(position === "before" ? { fetchPriority: "high" as const } : { loading: "lazy" as const })}
        />
        <figcaption className="mt-2 text-center text-sm text-muted italic">{art.caption}</figcaption>
      </figure>
    ));
}
