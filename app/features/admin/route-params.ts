import { data } from "react-router";

/** An editor's `:id`: absent on its `/new` route, else a row's number (anything else is the 404). */
export function rowIdParam(param: string | undefined): number | undefined {
  if (param === undefined) return undefined;
  const id = Number(param);
  if (!/^\d{1,10}$/.test(param) || !Number.isInteger(id) || id < 1 || id > 2_147_483_647)
    throw data(null, { status: 404 });
  return id;
}

/** An editor's `:key`: absent on its `/new` route, else a key of lower-case letters, digits and hyphens (else 404). */
export function rowKeyParam(param: string | undefined, max: number): string | undefined {
  if (param === undefined) return undefined;
  if (param.length > max || !/^[a-z0-9]+(?:-[a-z0-9]+)*$/.test(param)) throw data(null, { status: 404 });
  return param;
}
