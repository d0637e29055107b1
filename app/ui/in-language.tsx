/**
 * A sentence in the page's language around one value in another (an English title on a Spanish page, ADR
 * 97): the value in a span carrying its `lang`, the sentence's words around it as the catalogue says them.
 * Without `lang` the sentence is the plain text.
 */
export function SentenceWith({
  sentence,
  value,
  lang,
}: {
  sentence: (value: string) => string;
  value: string;
  lang: string | undefined;
}) {
  if (!lang) return sentence(value);
  const marker = "\u0001";
  const [before = "", ...after] = sentence(marker).split(marker);
  return (
    <>
      {before}
      <span lang={lang}>{value}</span>
      {after.join(value)}
    </>
  );
}
