import { type FormEvent, useCallback, useEffect, useRef, useState } from "react";
import { useSubmit } from "react-router";
import type { ArtworkField } from "~/features/chapters/chapter-form";

/** The chapter form's fields as text, as the form shows them. */
export type EditorValues = {
  title: string;
  volume: string;
  bodyMd: string;
  /** The author's notes before and after the text (ADR 95); empty: none. */
  noteBefore?: string;
  noteAfter?: string;
  status: "draft" | "published";
  releaseLocal: string;
  coinsRequired: string;
  tags: string;
} & Partial<Record<ArtworkField, string>>;

const EVERY_MS = 5000;

/**
 * Never lose text (ADR 35): while the author writes, the form's title and text are sent to /admin/drafts
 * every 5 seconds when they changed, and once more when the page is left (a beacon); the browser keeps a
 * copy too. An answer of 404 means the session ended (the admin answers nobody else): the page says so, keeps
 * the text, and the save waits until the author has signed in again (in another tab). A save first sends
 * the text as a draft, so an expired session is found before the form leaves the page.
 */
export function useAutosave({ key, baseVersion }: { key: string; baseVersion: number | null }) {
  const formRef = useRef<HTMLFormElement>(null);
  const sent = useRef<string | undefined>(undefined);
  const [savedAt, setSavedAt] = useState<string>();
  const [sessionEnded, setSessionEnded] = useState(false);
  const submit = useSubmit();

  const body = useCallback(() => {
    const form = formRef.current;
    if (!form) return undefined;
    const fields = new FormData(form);
    const draft = new URLSearchParams({
      key,
      title: String(fields.get("title") ?? ""),
      bodyMd: String(fields.get("bodyMd") ?? ""),
      ...(baseVersion !== null && { baseVersion: String(baseVersion) }),
    });
    return draft;
  }, [key, baseVersion]);

  const send = useCallback(async (): Promise<boolean> => {
    const draft = body();
    if (!draft) return true;
    const text = draft.toString();
    try {
      localStorage.setItem(`admin-draft:${key}`, text);
    } catch {
      // Storage full or refused: the server copy is the one that counts.
    }
    if (text === sent.current) return true;
    try {
      const response = await fetch("/admin/drafts", { method: "POST", body: draft });
      if (response.status === 404) {
        setSessionEnded(true);
        return false;
      }
      if (!response.ok) return true;
      sent.current = text;
      setSessionEnded(false);
      setSavedAt(((await response.json()) as { savedAt: string }).savedAt);
    } catch {
      // Offline for a moment: the next tick tries again; the browser's copy is kept meanwhile.
    }
    return true;
  }, [body, key]);

  useEffect(() => {
    // What the page opened with is not a change.
    sent.current = body()?.toString();
    const timer = setInterval(() => void send(), EVERY_MS);
    const leave = () => {
      const draft = body();
      if (draft && draft.toString() !== sent.current) navigator.sendBeacon("/admin/drafts", draft);
    };
    window.addEventListener("pagehide", leave);
    return () => {
      clearInterval(timer);
      window.removeEventListener("pagehide", leave);
    };
  }, [body, send]);

  /** The submit handler: the text goes out as a draft first; only a live session saves. */
  const beforeSave = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    void send().then((alive) => {
      if (alive) void submit(form);
    });
  };

  return { formRef, savedAt, sessionEnded, beforeSave };
}
