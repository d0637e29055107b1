/** Limits of a poll (the columns' checks say the same): characters of the question and of a label. */
export const POLL_LIMITS = {
  question: 200,
  label: 80,
  minOptions: 2,
  maxOptions: 8,
  /** The longest a poll may run, in days: a close time years away is a typo. */
  maxDays: 366,
} as const;

/** The form's option fields, by position: `option0Label`, `option0Image`, … */
export const optionFields = Array.from({ length: POLL_LIMITS.maxOptions }, (_, index) => ({
  label: `option${index}Label`,
  image: `option${index}Image`,
}));
