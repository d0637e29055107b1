import { db } from "#db/client.server";
import { recordAudit } from "~/features/audit/log.server";
import { pictureOf } from "~/features/uploads/picture";
import { listUploads, uploadImage } from "~/features/uploads/store.server";
import type { Language } from "~/i18n/config";
import { serverTranslator } from "~/i18n/server";
import { mediaStore } from "~/lib/media-store.server";

/** The admin's images page: the newest uploads. */
export function siteUploads() {
  return listUploads(db());
}

/** The uploads a chapter's artwork may be chosen from: each by its largest image in its own format. */
export async function artworkChoices() {
  return (await listUploads(db())).flatMap((upload) => {
    const picture = pictureOf(upload);
    return picture
      ? [{ url: picture.src, label: `${upload.originalFilename} (${upload.width}×${upload.height})` }]
      : [];
  });
}

/**
 * An author's upload (a form's file field) into the site's media store (ADR 33), recorded as theirs and in
 * the audit log. A refusal comes back as its message in the author's language (the upload messages are the
 * server's).
 */
export async function uploadForAuthor(file: FormDataEntryValue | null, authorId: number, language: Language) {
  const t = serverTranslator(language);
  if (!(file instanceof File) || file.size === 0)
    return { ok: false, error: t("uploads.errors.empty") } as const;
  const result = await uploadImage(db(), mediaStore(), new Uint8Array(await file.arrayBuffer()), {
    filename: file.name,
    createdBy: authorId,
    // A new image is a change to the site; the same file again changes nothing and is not logged.
    onCreated: (tx, upload) =>
      recordAudit(
        tx,
        { via: "admin", userId: authorId },
        {
          action: "upload.create",
          subjectType: "upload",
          subjectId: upload.id,
          after: {
            filename: upload.originalFilename,
            contentType: upload.contentType,
            width: upload.width,
            height: upload.height,
            bytes: upload.bytes,
            hash: upload.hash,
          },
        },
      ),
  });
  if (!result.ok) return { ok: false, error: t(result.messageKey, result.values) } as const;
  return { ok: true, name: result.upload.originalFilename, created: result.created } as const;
}
