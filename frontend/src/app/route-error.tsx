import { Link, isRouteErrorResponse, useRouteError } from 'react-router-dom';

/** Shown when a page fails to load (for example after a deployment replaced its code). */
export function RouteError() {
  const error = useRouteError();
  console.error(error);
  const detail = isRouteErrorResponse(error) ? `${error.status} ${error.statusText}` : null;
  return (
    <section className="container error-page" role="alert">
      <h1>Something went wrong</h1>
      <p>This page could not be displayed{detail ? ` (${detail})` : ''}. Please reload the page or try again later.</p>
      <p>
        <a className="btn btn-primary" href={window.location.href}>
          Reload
        </a>{' '}
        <Link className="btn btn-outline" to="/">
          Return Home
        </Link>
      </p>
    </section>
  );
}
