import "~/i18n/full-catalogue";
import { data, Form, redirect, useNavigation } from "react-router";
import { requireUser } from "~/features/auth/guards.server";
import { getKeptSessionUser } from "~/features/auth/session.server";
import { renderMarkdownCached } from "~/features/content/markdown.server";
import { perkPlaces } from "~/features/discord/perk-places.server";
import {
  GIFT_CURRENCY,
  GIFT_MAX_CENTS,
  GIFT_MIN_CENTS,
  giftPresets,
  giftSchema,
} from "~/features/fundraiser/gift";
import { GoalProgress, SupporterList } from "~/features/fundraiser/progress";
import { fundraiserFigures, type GoalFigures, listSupportTiers } from "~/features/fundraiser/queries.server";
import { joinSchema, toSupporterChoice } from "~/features/fundraiser/wall-choice";
import { WallChoiceFields } from "~/features/fundraiser/wall-choice-fields";
import { PerkLinks } from "~/features/membership/perk-links";
import { perkLinks, perksAddedBy } from "~/features/membership/perks";
import { type MembershipTier, tierRank } from "~/features/membership/tiers";
import { CheckoutError, startCheckout } from "~/features/payments/checkout.server";
import { latestSubscription, subscriptionView } from "~/features/subscriptions/queries.server";
import {
  bodyText,
  listField,
  type TranslatedText,
  textField,
  translationsOf,
} from "~/features/translations/reading.server";
import { useTranslation } from "~/i18n/react";
import { type FieldErrors, parseForm, readForm } from "~/lib/forms";
import { getPreferences } from "~/lib/preferences.server";
import { shareablePage } from "~/lib/shareable";
import { buttonClass } from "~/ui/button";
import { FormAlert, useFormValidation } from "~/ui/form";
import { Link } from "~/ui/link";
import { Page } from "~/ui/page";
import { Prose } from "~/ui/prose";
import { useFormat } from "~/ui/use-format";
import type { Route } from "./+types/fundraiser";

/**
 * Kept once for all visitors, and once for all signed-in readers alike with no running subscription; a
 * subscriber's page shows their own, rendered for them (page-cache/viewer.server.ts, ADR 102).
 */
export const headers = shareablePage;

/** A goal as the page shows it: its title and description in the page's language where translated (ADR 86). */
function withHtml(goal: GoalFigures | undefined, translated: Map<string, TranslatedText>) {
  const text = goal && translated.get(goal.title);
  return (
    goal && {
      ...goal,
      title: textField(text, "title", goal.title),
      html: renderMarkdownCached(bodyText(text, goal.descriptionMd)),
    }
  );
}

/**
 * The reader's running subscription, which the tier cards answer to (ADR 27: one subscription per reader):
 * their own tier reads as theirs, the others offer a change of tier. None for a visitor or after it ended.
 */
async function runningSubscription(request: Request) {
  // The kept session the page cache names a reader's group from (ADR 102): a reader it says has no running
  // subscription is served the group's page, so the group's render reads none either.
  const user = await getKeptSessionUser(request);
  if (!user?.subscribed) return null;
  const sub = await latestSubscription(user.id);
  const view = sub && subscriptionView(sub, new Date());
  if (!view || view.phase === "ended") return null;
  const { phase, periodEnd, accessEnd } = view;
  const { tierKey, pendingTierKey } = sub;
  return { tierKey, pendingTierKey, phase, periodEnd, accessEnd };
}

export type MySubscription = NonNullable<Awaited<ReturnType<typeof runningSubscription>>>;

export async function loader({ request }: Route.LoaderArgs) {
  const language = getPreferences(request).language;
  const [{ goals, recent, supporterCount }, tiers, mine, places, goalTexts, tierTexts] = await Promise.all([
    fundraiserFigures(),
    listSupportTiers(),
    runningSubscription(request),
    perkPlaces(),
    // The author's words in the page's language where translated, one query a kind; amounts stay the original's.
    translationsOf("goal", language),
    translationsOf("tier", language),
  ]);
  return {
    monthly: withHtml(goals.monthly, goalTexts),
    campaign: withHtml(goals.campaign, goalTexts),
    tiers: tiers.map(({ key, amountCents, currency, perks, pitch }) => ({
      key,
      amountCents,
      currency,
      perks: listField(tierTexts.get(key), "perks", perks),
      pitch: bodyText(tierTexts.get(key), pitch),
      perkLinks: perkLinks(perksAddedBy(key), places),
    })),
    recent,
    supporterCount,
    mine,
  };
}

type ActionResult = { form: string; errors?: FieldErrors; formError?: string };

/** Join a tier or give once: signed-out visitors sign in first and come back here (requireUser). */
export async function action({ request, context }: Route.ActionArgs) {
  const user = await requireUser(request);
  const form = await readForm(request);
  const intent = form.get("intent");
  try {
    if (intent === "join") {
      const parsed = parseForm(joinSchema, form);
      const which = `join-${String(form.get("tierKey") ?? "").slice(0, 40)}`;
      if (!parsed.ok) return data<ActionResult>({ form: which, errors: parsed.errors }, { status: 400 });
      const { tierKey, ...choice } = parsed.data;
      const { url } = await startCheckout(
        user,
        { kind: "subscription", tierKey, supporter: toSupporterChoice(choice) },
        { ip: context.ip },
      );
      return redirect(url);
    }
    if (intent === "gift") {
      const parsed = parseForm(giftSchema, form);
      if (!parsed.ok) return data<ActionResult>({ form: "gift", errors: parsed.errors }, { status: 400 });
      const { url } = await startCheckout(
        user,
        {
          kind: "gift",
          amountCents: parsed.data.amountCents,
          currency: GIFT_CURRENCY,
          supporter: toSupporterChoice(parsed.data.choice),
        },
        { ip: context.ip },
      );
      return redirect(url);
    }
  } catch (error) {
    if (error instanceof CheckoutError)
      return data<ActionResult>(
        { form: intent === "gift" ? "gift" : "join", formError: error.messageKey },
        { status: error.status },
      );
    throw error;
  }
  return data<ActionResult>({ form: "", formError: "fundraiser.unknownAction" }, { status: 400 });
}

function GoalSection({
  id,
  eyebrow,
  goal,
}: {
  id: string;
  eyebrow: string;
  goal: NonNullable<Awaited<ReturnType<typeof loader>>["monthly"]>;
}) {
  return (
    <section
      aria-labelledby={id}
      className="rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6"
    >
      <p className="font-display text-sm tracking-widest text-accent uppercase">{eyebrow}</p>
      <h2 id={id} className="mb-3 font-display text-2xl text-primary">
        {goal.title}
      </h2>
      {goal.html ? <Prose html={goal.html} className="mb-6" /> : null}
      <GoalProgress goal={goal} label={`${eyebrow}: ${goal.title}`} />
    </section>
  );
}

function JoinForm({ tierKey, result }: { tierKey: MembershipTier; result?: ActionResult }) {
  const { t } = useTranslation();
  const navigation = useNavigation();
  const mine =
    result?.form === `join-${tierKey}` || (result?.form === "join" && result.formError) ? result : undefined;
  const { errors, onSubmit } = useFormValidation(joinSchema, mine?.errors);
  const busy = navigation.state !== "idle" && navigation.formData?.get("tierKey") === tierKey;
  const open = Object.keys(errors).length > 0;
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="mt-auto flex flex-col gap-3">
      <input type="hidden" name="intent" value="join" />
      <input type="hidden" name="tierKey" value={tierKey} />
      <details open={open} className="rounded-md border border-line px-3 py-2">
        <summary className="min-h-8 cursor-pointer py-1">{t("supporters.choice.summary")}</summary>
        <div className="pt-3">
          <WallChoiceFields idPrefix={`join-${tierKey}`} errors={errors} />
        </div>
      </details>
      {mine?.formError ? <FormAlert>{t(mine.formError)}</FormAlert> : null}
      <button type="submit" className={buttonClass("primary", "w-full")} disabled={busy}>
        {busy ? t("fundraiser.joining") : t("fundraiser.join", { tier: t(`tiers.${tierKey}`) })}
      </button>
    </Form>
  );
}

const manageLink = "text-primary underline underline-offset-2";

/**
 * A subscriber's tier card (ADR 27, one subscription per reader): their own tier says when it renews or
 * ends and leads to the account's subscription page (cancel, resume); another tier changes to it there,
 * through the same form the account offers, or says why it cannot change yet.
 */
function SubscriberTierAction({ tierKey, mine }: { tierKey: MembershipTier; mine: MySubscription }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const date = (iso: string | null) => (iso ? format.date(iso, { dateStyle: "long" }) : "");
  const manage = (
    <Link to="/account/subscription" className={manageLink}>
      {t("fundraiser.manage")}
    </Link>
  );
  if (tierKey === mine.tierKey) {
    const when = {
      active: t("subscriptions.renews", { date: date(mine.periodEnd) }),
      renewing: t("subscriptions.renewing", { date: date(mine.accessEnd) }),
      ending: t("subscriptions.ends", { date: date(mine.periodEnd) }),
      grace: t("subscriptions.grace", { date: date(mine.accessEnd) }),
    }[mine.phase as Exclude<MySubscription["phase"], "ended">];
    return (
      <div className="mt-auto flex flex-col gap-2" data-testid="own-tier">
        <p>{when}</p>
        <p>{manage}</p>
      </div>
    );
  }
  if (mine.pendingTierKey === tierKey)
    return (
      <div className="mt-auto flex flex-col gap-2">
        <p>{t("subscriptions.pending", { tier: t(`tiers.${tierKey}`), date: date(mine.periodEnd) })}</p>
        <p>{manage}</p>
      </div>
    );
  if (mine.phase === "grace")
    return (
      <div className="mt-auto flex flex-col gap-2">
        <p className="text-muted">{t("fundraiser.graceNote")}</p>
        <p>{manage}</p>
      </div>
    );
  const busy = navigation.state !== "idle" && navigation.formData?.get("tierKey") === tierKey;
  const label = tierRank(tierKey) > tierRank(mine.tierKey) ? "fundraiser.upgrade" : "fundraiser.downgrade";
  return (
    <Form method="post" action="/account/subscription" className="mt-auto">
      <input type="hidden" name="intent" value="change" />
      <input type="hidden" name="tierKey" value={tierKey} />
      <button type="submit" className={buttonClass("outline", "w-full")} disabled={busy}>
        {busy ? t("fundraiser.changing") : t(label, { tier: t(`tiers.${tierKey}`) })}
      </button>
    </Form>
  );
}

function GiftForm({ result }: { result?: ActionResult }) {
  const { t } = useTranslation();
  const format = useFormat();
  const navigation = useNavigation();
  const mine = result?.form === "gift" ? result : undefined;
  const { errors, onSubmit } = useFormValidation(giftSchema, mine?.errors);
  const busy = navigation.state !== "idle" && navigation.formData?.get("intent") === "gift";
  const amountError = errors.customAmount ?? errors.preset;
  return (
    <Form method="post" noValidate onSubmit={onSubmit} className="flex flex-col gap-5">
      <input type="hidden" name="intent" value="gift" />
      <fieldset>
        <legend className="mb-2 font-display text-sm tracking-wide">{t("gifts.amount")}</legend>
        <div className="grid grid-cols-2 gap-2 sm:grid-cols-4">
          {giftPresets.map((cents, index) => (
            <label
              key={cents}
              className="flex min-h-11 cursor-pointer items-center justify-center rounded-md border border-line text-lg has-[:checked]:border-primary has-[:checked]:bg-primary has-[:checked]:text-on-primary has-[:focus-visible]:outline-2"
            >
              <input
                type="radio"
                name="preset"
                value={cents}
                defaultChecked={index === 1}
                className="sr-only"
              />
              {format.money(Number(cents), GIFT_CURRENCY)}
            </label>
          ))}
        </div>
      </fieldset>
      <div className="flex flex-col gap-1">
        <label htmlFor="gift-customAmount" className="font-display text-sm tracking-wide">
          {t("gifts.custom")}
        </label>
        <input
          id="gift-customAmount"
          name="customAmount"
          inputMode="decimal"
          autoComplete="off"
          maxLength={12}
          placeholder="12.34"
          aria-invalid={amountError ? true : undefined}
          aria-describedby={`gift-customAmount-hint${amountError ? " gift-customAmount-error" : ""}`}
          className="min-h-11 w-full max-w-48 rounded-md border border-line bg-[color:var(--surface)] px-3 py-2 text-base text-ink aria-[invalid=true]:border-[#c0392b]"
        />
        <p id="gift-customAmount-hint" className="text-sm text-muted">
          {t("gifts.customHint", {
            min: format.money(GIFT_MIN_CENTS, GIFT_CURRENCY),
            max: format.money(GIFT_MAX_CENTS, GIFT_CURRENCY),
          })}
        </p>
        {amountError ? (
          <p id="gift-customAmount-error" className="text-sm text-[#b42318] dark:text-[#ff8a80]">
            {t(amountError, {
              min: format.money(GIFT_MIN_CENTS, GIFT_CURRENCY),
              max: format.money(GIFT_MAX_CENTS, GIFT_CURRENCY),
            })}
          </p>
        ) : null}
      </div>
      <WallChoiceFields idPrefix="gift" errors={errors} />
      {mine?.formError ? <FormAlert>{t(mine.formError)}</FormAlert> : null}
      <button type="submit" className={buttonClass("primary", "self-start")} disabled={busy}>
        {busy ? t("gifts.giving") : t("gifts.give")}
      </button>
    </Form>
  );
}

export default function Fundraiser({ loaderData, actionData }: Route.ComponentProps) {
  const { t } = useTranslation();
  const format = useFormat();
  const { monthly, campaign, tiers, recent, supporterCount, mine } = loaderData;
  const result = actionData as ActionResult | undefined;
  return (
    <Page
      title={t("fundraiser.heading")}
      intro={t("fundraiser.intro")}
      width="max-w-5xl"
      share={{ description: t("fundraiser.intro"), path: "/fundraiser" }}
    >
      <div className="flex flex-col gap-6">
        {monthly ? (
          <GoalSection id="monthly-goal" eyebrow={t("fundraiser.monthlyGoal")} goal={monthly} />
        ) : null}
        {campaign ? (
          <GoalSection id="campaign-goal" eyebrow={t("fundraiser.campaign")} goal={campaign} />
        ) : null}
        {!monthly && !campaign ? <p className="text-center italic">{t("fundraiser.noGoal")}</p> : null}
      </div>

      <section aria-labelledby="tiers" className="mt-12">
        <h2 id="tiers" className="mb-2 text-center font-display text-2xl text-primary">
          {t("fundraiser.tiersHeading")}
        </h2>
        <p className="mb-6 text-center text-muted">
          {mine
            ? t("fundraiser.subscribedNote", { tier: t(`tiers.${mine.tierKey}`) })
            : t("fundraiser.signInNote")}
        </p>
        <p className="mx-auto mb-6 max-w-2xl text-center text-muted text-sm" data-testid="perk-rule">
          {t("perks.rule")}
        </p>
        <ul className="grid gap-4 md:grid-cols-3">
          {tiers.map((tier) => {
            const own = mine?.tierKey === tier.key;
            return (
              <li
                key={tier.key}
                aria-current={own ? "true" : undefined}
                data-testid={`tier-${tier.key}`}
                className={`flex min-w-0 flex-col gap-3 rounded-xl border bg-[color:var(--surface)] p-4 sm:p-6 ${own ? "border-2 border-primary" : "border-line"}`}
              >
                <h3 className="flex flex-wrap items-baseline justify-between gap-2 font-display text-xl">
                  {t(`tiers.${tier.key}`)}
                  {own ? (
                    <span className="rounded-full bg-primary px-3 py-0.5 font-sans text-sm text-[color:var(--surface)]">
                      {t("fundraiser.yourTier")}
                    </span>
                  ) : null}
                </h3>
                <p className="text-2xl text-primary">
                  {t("fundraiser.perMonth", { amount: format.money(tier.amountCents, tier.currency) })}
                </p>
                <p className="text-muted">{tier.pitch}</p>
                <ul className="flex list-disc flex-col gap-1 pl-5">
                  {tier.perks.map((perk) => (
                    <li key={perk}>{perk}</li>
                  ))}
                </ul>
                <PerkLinks links={tier.perkLinks} heading={t("perks.tierHeading")} />
                {mine ? (
                  <SubscriberTierAction tierKey={tier.key} mine={mine} />
                ) : (
                  <JoinForm tierKey={tier.key} result={result} />
                )}
              </li>
            );
          })}
        </ul>
      </section>

      <section
        aria-labelledby="gift"
        className="mt-12 rounded-xl border border-line bg-[color:var(--surface)] p-4 sm:p-6"
      >
        <h2 id="gift" className="mb-2 font-display text-2xl text-primary">
          {t("gifts.heading")}
        </h2>
        <p className="mb-6 text-muted">{t("gifts.intro")}</p>
        <GiftForm result={result} />
      </section>

      <section aria-labelledby="supporters" className="mt-12">
        <h2 id="supporters" className="mb-6 text-center font-display text-2xl text-primary">
          {t("fundraiser.recentSupporters")}
        </h2>
        <SupporterList supporters={recent} />
        <p className="mt-6 text-center">
          <Link to="/fundraiser/supporters" className={buttonClass("outline")}>
            {t("supporters.viewAll", { count: supporterCount })}
          </Link>
        </p>
      </section>
    </Page>
  );
}
