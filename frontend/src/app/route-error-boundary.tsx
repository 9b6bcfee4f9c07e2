import { Component, type ErrorInfo, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { languageOfPath, pathInLanguage } from '@/config/languages';
import { i18n } from '@/lib/i18n';

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
    // A class component has no hooks: the messages come from the active language (common).
    return (
      <section className="container error-page" role="alert">
        <h1>{i18n._('common.error.title')}</h1>
        <p>{i18n._('common.error.text')}</p>
        <p>
          <a className="btn btn-primary" href={window.location.href}>
            {i18n._('common.error.reload')}
          </a>{' '}
          <Link className="btn btn-outline" to={pathInLanguage('/', languageOfPath(window.location.pathname))}>
            {i18n._('common.return_home')}
          </Link>
        </p>
      </section>
    );
  }
}
