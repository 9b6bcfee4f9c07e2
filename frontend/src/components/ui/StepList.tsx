import type { LucideIcon } from 'lucide-react';
import './StepList.css';

export type Step = { Icon: LucideIcon; title: string; text: string };

/** An ordered list of numbered step cards (the number is decorative: the <ol> carries the order). */
export function StepList({ steps }: { steps: readonly Step[] }) {
  return (
    <ol className="steps">
      {steps.map(({ Icon, title, text }, index) => (
        <li key={title} className="step">
          <span className="step-number" aria-hidden="true">
            {index + 1}
          </span>
          <Icon className="step-icon" aria-hidden="true" size={28} />
          <h3>{title}</h3>
          <p>{text}</p>
        </li>
      ))}
    </ol>
  );
}
