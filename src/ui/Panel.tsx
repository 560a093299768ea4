import type { ReactNode } from 'react';
import { ErrorBoundary } from './ErrorBoundary';
import './panels/panels.css';

interface PanelProps {
  title: string;
  testId: string;
  className?: string;
  children: ReactNode;
  /** Extra controls in the panel's header (a node picker). */
  actions?: ReactNode;
}

/** A titled section with its own error boundary. */
export function Panel({ title, testId, className, children, actions }: PanelProps) {
  const id = `panel-${testId}`;
  return (
    <section className={`panel ${className ?? ''}`} data-testid={testId} aria-labelledby={id}>
      <header className="panel-head">
        <h2 id={id}>{title}</h2>
        {actions}
      </header>
      <ErrorBoundary name={`the ${title} panel`}>{children}</ErrorBoundary>
    </section>
  );
}
