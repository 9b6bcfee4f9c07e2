/** The accessibility attributes of an input shown in a Field (Field.tsx): its id, and its error
 * message or hint as its description. */
export function fieldInputProps(id: string, error?: string, hint?: string) {
  return {
    id,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? `${id}-error` : hint ? `${id}-hint` : undefined,
  } as const;
}
