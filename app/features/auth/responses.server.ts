import { data } from "react-router";
import type { FieldErrors } from "~/lib/forms";
import type { Throttled } from "./throttle.server";

/** What an auth form's action answers when the form cannot be accepted. */
export type FormFailure = {
  errors?: FieldErrors;
  /** A catalogue key for the red box above the form. */
  formError?: string;
  retryAfterMinutes?: number;
  values?: Record<string, string>;
};

export function formFailure(failure: FormFailure, status = 400) {
  return data(failure, { status });
}

/** 429 with Retry-After and a message that says when to try again. */
export function throttledFailure(error: Throttled) {
  return data<FormFailure>(
    { formError: "auth.throttled", retryAfterMinutes: Math.max(1, Math.ceil(error.retryAfterSeconds / 60)) },
    { status: 429, headers: { "Retry-After": String(error.retryAfterSeconds) } },
  );
}
