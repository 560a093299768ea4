import type { ReactNode } from 'react';
import type { Command } from '../../store/commands';
import { run } from '../../store/commands';
import { useAppStore, useAppStoreApi } from '../../store';

interface CommandButtonProps {
  command: Command;
  /** Visible content; the accessible name is always the command's label. */
  children?: ReactNode;
  className?: string | undefined;
  pressed?: boolean | undefined;
}

/**
 * A button that runs a command; its name, shortcut and disabled state come from the record.
 * It is disabled with `aria-disabled` rather than the `disabled` attribute: a button that
 * becomes disabled while focused (Next at the last step) keeps its focus instead of dropping
 * it to the page, and clicks on it are ignored.
 */
export function CommandButton({ command, children, className, pressed }: CommandButtonProps) {
  const store = useAppStoreApi();
  const label = useAppStore(command.label);
  const enabled = useAppStore(() => command.enabled(store));
  return (
    <button
      type="button"
      className={className}
      onClick={() => {
        if (enabled) run(store, command);
      }}
      aria-disabled={enabled ? undefined : true}
      aria-label={label}
      aria-keyshortcuts={command.shortcut === 'Space' ? 'Space' : command.keys?.[0]}
      aria-pressed={pressed}
      title={command.shortcut ? `${label} (${command.shortcut})` : label}
      data-command={command.id}
    >
      {children ?? label}
    </button>
  );
}
