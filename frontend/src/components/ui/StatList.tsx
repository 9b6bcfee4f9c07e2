import type { ReactNode } from 'react';

export type Stat = { label: string; value: ReactNode };

/** Key figures as a description list: each label (dt) with its big number (dd). */
export function StatList({ stats }: { stats: readonly Stat[] }) {
  return (
    <dl className="stats">
      {stats.map((stat) => (
        <div key={stat.label} className="stat">
          <dt>{stat.label}</dt>
          <dd>{stat.value}</dd>
        </div>
      ))}
    </dl>
  );
}
