import { zodResolver } from '@hookform/resolvers/zod';
import {
  useForm,
  type DefaultValues,
  type FieldErrors,
  type FieldValues,
  type Resolver,
  type UseFormProps,
} from 'react-hook-form';
import { setZodMessages } from '@app/shared';
import type * as z from 'zod/mini';

/** A schema that checks a form's values and gives what the form sends. */
export type FormSchema<O> = z.ZodMiniType<O, unknown>;

/**
 * Every form of the SPA: react-hook-form checked by a zod schema (the payload's own from @app/shared
 * where it has one), first on submit, then again as each field changes; the first field with a
 * problem gets the focus. `schema` may change from render to render (it can depend on loaded data);
 * a function is called at each check, for forms whose buttons check different things.
 */
export function useZodForm<V extends FieldValues, O>(
  schema: FormSchema<O> | (() => FormSchema<O>),
  defaultValues: DefaultValues<V>,
  options: Omit<UseFormProps<V, unknown, O>, 'resolver' | 'defaultValues'> = {},
) {
  // Schemas built here (not through lazySchema) still need zod's English messages set.
  setZodMessages();
  const resolver: Resolver<V, unknown, O> = (values, context, resolverOptions) =>
    zodResolver((typeof schema === 'function' ? schema() : schema) as z.ZodMiniType<O, V>)(
      values,
      context,
      resolverOptions,
    );
  return useForm<V, unknown, O>({
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onChange',
    shouldFocusError: true,
    defaultValues,
    ...options,
  });
}

/**
 * The message of the first of `order` that has an error, for forms that show one problem at a time
 * (`order` may name payload fields that the schema fills in rather than an input).
 */
export function firstError(errors: FieldErrors, order: readonly string[]): string | undefined {
  for (const name of order) {
    const message = errors[name]?.message;
    if (typeof message === 'string' && message) return message;
  }
  return undefined;
}
