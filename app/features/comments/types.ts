/** A comment as a page shows it (route data: dates as ISO strings). */
export type CommentView = {
  id: number;
  parentId: number | null;
  writer: string;
  /** Written by an author of the site: the "Author" badge. */
  byAuthor: boolean;
  /** Sanitised HTML; empty for a comment its writer deleted while it had replies. */
  html: string;
  spoiler: boolean;
  deleted: boolean;
  createdAt: string;
  editedAt: string | null;
  hearts: number;
  /** The viewer's own heart, and whether the comment is theirs. Always false for visitors (a kept page). */
  hearted: boolean;
  mine: boolean;
  /** The Markdown to edit, for the viewer's own comment while it may still be edited. */
  editableMd?: string;
  replies: CommentView[];
};

/** Who reads the comments: what they may do. */
export type CommentViewer =
  | { signedIn: false }
  | { signedIn: true; banned: boolean; author: boolean; username: string };

export type CommentsPage = {
  chapter: { number: number; title: string };
  comments: CommentView[];
  /** Visible comments and replies on the chapter. */
  total: number;
  order: "newest" | "oldest";
  page: number;
  pages: number;
  viewer: CommentViewer;
};
