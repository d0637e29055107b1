import type { FormEvent, ReactNode } from "react";
import { Form, type ShouldRevalidateFunctionArgs, useNavigation } from "react-router";
import { useTranslation } from "~/i18n/react";
import { FormAlert, FormNotice } from "~/ui/form";

/**
 * A digest form's page reads its row again after a conflict (409): React Router keeps a page's data after an
 * action answers 4xx, so the form would otherwise keep the stale digest and every later save would conflict
 * again. The page exports it as its `shouldRevalidate`; the next save is then made knowingly from the row as
 * it is now, as a chapter's is from the version now current.
 */
export function revalidateAfterConflict({
  actionStatus,
  defaultShouldRevalidate,
}: ShouldRevalidateFunctionArgs) {
  return actionStatus === 409 || defaultShouldRevalidate;
}

/** What a settings form's action answers: saved, a conflict, or field errors, with what was typed. */
export type DigestFormResult = {
  saved?: boolean;
  conflict?: boolean;
  errors?: Record<string, string>;
  values?: Record<string, string>;
};

/** What a row editor's action answers besides a redirect: also the counts a refused deletion names. */
export type EditorResult = DigestFormResult & { inUse?: Record<string, number> };

/**
 * A form saved from a digest of what it opened (site settings, legal pages: ADR 38): its notice or conflict
 * alert, and the form carrying the digest. After a save or a conflict it opens again from the row as it now
 * is (its key is the digest), with what the author typed kept by the caller's `values`.
 */
export function DigestForm({
  base,
  result,
  onSubmit,
  children,
}: {
  /** Absent for a new row: nothing to be in conflict with. */
  base?: string;
  result: DigestFormResult | undefined;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  return (
    <>
      {result?.saved ? <FormNotice>{t("admin.site.saved")}</FormNotice> : null}
      {result?.conflict ? <FormAlert>{t("admin.site.conflict")}</FormAlert> : null}
      <Form
        method="post"
        noValidate
        onSubmit={onSubmit}
        className="flex flex-col gap-5"
        aria-busy={navigation.state === "submitting"}
        key={base ?? "new"}
      >
        {base ? <input type="hidden" name="base" value={base} /> : null}
        {children}
      </Form>
    </>
  );
}
