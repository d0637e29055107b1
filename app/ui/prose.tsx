/** HTML rendered from Markdown on the server (already sanitised by features/content/markdown.server.ts). */
export function Prose({ html, className = "" }: { html: string; className?: string }) {
  // biome-ignore lint/security/noDangerouslySetInnerHtml: sanitised on the server after the last HTML-producing step
  return <div className={`prose-content ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
