import { useId, type ReactNode } from 'react';

export interface RadioOption<T extends string> {
  value: T;
  label: ReactNode;
  disabled?: boolean;
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
}

/** A fieldset of radio buttons with a legend: one accessible group per toggle. */
export function RadioGroup<T extends string>(props: RadioGroupProps<T>) {
  const noteId = useId();
  return (
    <fieldset
      className="radio-group"
      disabled={props.disabled}
      aria-describedby={props.note ? noteId : undefined}
      data-group={props.name}
    >
      <legend>{props.legend}</legend>
      <div className="radios">
        {props.options.map((o) => (
          <label key={o.value} className={o.disabled ? 'disabled' : undefined}>
            <input
              type="radio"
              name={props.name}
              value={o.value}
              checked={props.value === o.value}
              disabled={o.disabled}
              onChange={() => props.onChange(o.value)}
            />
            {o.label}
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
