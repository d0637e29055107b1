import { data } from "react-router";
import { NotFoundScreen } from "~/features/layout/error-screen";

export function loader() {
  return data(null, { status: 404 });
}

/**
 * A form sent to no page is the same 404 as asking for it, whatever the method: without an action the router
 * would answer 405, and an unknown /admin address would answer differently from a real one (a 404 to anyone
 * but an author), telling which admin pages exist.
 */
export function action() {
  return data(null, { status: 404 });
}

export default function NotFound() {
  return <NotFoundScreen />;
}
