import { QueryErrorResetBoundary } from '@tanstack/react-query';
import { Component, createRef, type ReactNode } from 'react';
import { isApiError } from '@/lib/api-client';
import { Button } from '@/components/ui/button';
import { ErrorNotice } from './error-notice';

interface BoundaryProps {
  what: string;
  onReset: () => void;
  children: ReactNode;
}

class Boundary extends Component<BoundaryProps, { failed: boolean; error: unknown }> {
  override state = { failed: false, error: null as unknown };
  /** The part's frame: Try again (which goes away with the failure) leaves the focus on it. */
  private frame = createRef<HTMLDivElement>();

  static getDerivedStateFromError(error: unknown) {
    return { failed: true, error };
  }

  override render() {
    const { failed, error } = this.state;
    if (!failed) {
      return (
        <div ref={this.frame} tabIndex={-1} className="outline-none">
          {this.props.children}
        </div>
      );
    }
    // A 401 is being handled: the app is on its way to sign-in.
    if (isApiError(error) && error.status === 401) return null;
    return (
      <ErrorNotice title={`${this.props.what} could not be loaded.`} error={error} className="p-4">
        <Button
          size="sm"
          onClick={() => {
            this.props.onReset();
            this.setState({ failed: false, error: null }, () => this.frame.current?.focus());
          }}
        >
          Try again
        </Button>
      </ErrorNotice>
    );
  }
}

/**
 * A part of a page that loads on its own (an export's runs, its logs): when its data fails, the
 * failure and Try again show in its place, and the rest of the page stays (the route's error
 * boundary would replace the whole page, the part that loaded included).
 */
export function SectionBoundary({ what, children }: { what: string; children: ReactNode }) {
  return (
    <QueryErrorResetBoundary>
      {({ reset }) => (
        <Boundary what={what} onReset={reset}>
          {children}
        </Boundary>
      )}
    </QueryErrorResetBoundary>
  );
}
