/** HTML rendered from Markdown on the server (already sanitised by features/content/markdown.server.ts). */
export function Prose({ html, className = "" }: { html: string; className?: string }) {
  return <div className={`prose-content ${className}`} dangerouslySetInnerHTML={{ __html: html }} />;
}
