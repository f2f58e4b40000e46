/**
 * The words that confirm a connection's deletion, one per UI language (pt-BR, en, es, ru); the
 * connection's own name is accepted too. The server checks them; the form enables its button
 * on the same list.
 */
export const DELETE_WORDS = ["EXCLUIR", "DELETE", "ELIMINAR", "УДАЛИТЬ"] as const;

/** Whether what the user typed confirms deleting the connection named `name`. */
export function confirmsDeletion(typed: string | null | undefined, name: string): boolean {
  if (!typed) return false;
  return (DELETE_WORDS as readonly string[]).includes(typed.toUpperCase()) || typed === name;
}
