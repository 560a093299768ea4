import { Component, type ErrorInfo, type ReactNode } from 'react';

interface Props {
  /** What failed, for the message: "the Rules panel". */
  name: string;
  children: ReactNode;
}

interface State {
  error: Error | null;
}

/** Keeps one failing panel from blanking the page: it shows what broke and a retry button. */
export class ErrorBoundary extends Component<Props, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: Error): State {
    return { error };
  }

  override componentDidCatch(_error: Error, _info: ErrorInfo): void {
    // The message is on screen; nothing else to do (and no console noise for the e2e guard).
  }

  override render() {
    const { error } = this.state;
    if (!error) return this.props.children;
    return (
      <div className="panel-error" role="alert">
        <p>
          Something went wrong in {this.props.name}: <code>{error.message}</code>
        </p>
        <button type="button" onClick={() => this.setState({ error: null })}>
          Try again
        </button>
      </div>
    );
  }
}
