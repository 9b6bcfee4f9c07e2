import { Link } from 'react-router-dom';
import { Home, Info, Layers, Mail, PackageSearch } from 'lucide-react';
import { useDocumentTitle } from '@/hooks/use-document-title';

const HELP_LINKS = [
  { to: '/contact', Icon: Mail, label: 'Contact Support' },
  { to: '/services', Icon: Layers, label: 'Our Services' },
  { to: '/about', Icon: Info, label: 'About Us' },
];

/** The 404 page for any unknown route. */
export default function NotFoundPage() {
  useDocumentTitle('Page Not Found');
  return (
    <section className="container not-found" aria-labelledby="not-found-title">
      <p className="not-found-code">404</p>
      <h1 id="not-found-title">Page Not Found</h1>
      <p className="not-found-text">Oops! The page you're looking for seems to have been misplaced in transit.</p>
      <div className="button-row">
        <Link to="/" className="btn btn-primary btn-lg">
          <Home aria-hidden="true" size={20} />
          Return Home
        </Link>
        <Link to="/track" className="btn btn-outline btn-lg">
          <PackageSearch aria-hidden="true" size={20} />
          Track Package
        </Link>
      </div>
      <nav className="not-found-help" aria-label="Helpful links">
        <p>Maybe one of these pages can help:</p>
        <ul>
          {HELP_LINKS.map(({ to, Icon, label }) => (
            <li key={to}>
              <Link to={to}>
                <Icon aria-hidden="true" size={18} />
                {label}
              </Link>
            </li>
          ))}
        </ul>
      </nav>
    </section>
  );
}
