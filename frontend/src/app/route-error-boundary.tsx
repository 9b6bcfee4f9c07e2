import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';

type Props = { children: ReactNode; /** A new location clears the error. */ locationKey: string };
type State = { error: unknown; locationKey: string };

/** Shown when a page fails to load (for example after a deployment replaced its code). */
export class RouteErrorBoundary extends Component<Props, State> {
  state: State = { error: null, locationKey: this.props.locationKey };

  static getDerivedStateFromError(error: unknown): Partial<State> {
    return { error };
  }

  static getDerivedStateFromProps(props: Props, state: State): Partial<State> | null {
    return props.locationKey !== state.locationKey ? { error: null, locationKey: props.locationKey } : null;
  }

  componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error(error, info.componentStack);
  }

  render() {
    if (!this.state.error) return this.props.children;
    return (
      <section className="container error-page" role="alert">
        <h1>Something went wrong</h1>
        <p>This page could not be displayed. Please reload the page or try again later.</p>
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
}
