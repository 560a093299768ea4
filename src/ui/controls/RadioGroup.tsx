import { useId, type ReactNode } from 'react';
import './controls.css';

/** One option of a {@link RadioGroup}. */
export interface RadioOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
  /** A longer description, shown as the option's tooltip. */
  title?: string;
}

interface RadioGroupProps<T extends string> {
  legend: ReactNode;
  name: string;
  value: T;
  options: readonly RadioOption<T>[];
  onChange: (value: T) => void;
  disabled?: boolean;
  /** A sentence under the group (why it is disabled, what it means). */
  note?: ReactNode;
  /**
   * `segmented`: the options drawn as one row of joined buttons, the legend beside them when
   * they fit (the scene's two- and three-way toggles). `list` (default): plain radio buttons.
   * Either way they are native radio inputs in a fieldset, so the arrows move between them.
   */
  variant?: 'list' | 'segmented';
}

/** A fieldset of radio buttons with a legend: one accessible group per toggle. */
export function RadioGroup<T extends string>(props: RadioGroupProps<T>) {
  const noteId = useId();
  const segmented = props.variant === 'segmented';
  return (
    <fieldset
      className={segmented ? 'radio-group segmented' : 'radio-group'}
      disabled={props.disabled}
      aria-describedby={props.note ? noteId : undefined}
      data-group={props.name}
    >
      <legend>{props.legend}</legend>
      <div className={segmented ? 'segments' : 'radios'}>
        {props.options.map((o) => (
          <label key={o.value} className={o.disabled ? 'disabled' : undefined} title={o.title}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={props.value === o.value}
              disabled={o.disabled}
              onChange={() => props.onChange(o.value)}
            />
            <span>{o.label}</span>
          </label>
        ))}
      </div>
      {props.note && (
        <p className="note" id={noteId}>
          {props.note}
        </p>
      )}
    </fieldset>
  );
}
