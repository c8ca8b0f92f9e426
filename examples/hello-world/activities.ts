/** The hello-world activity, as in Temporal's sample. */
export async function greet(name: string): Promise<string> {
  return `Hello, ${name}!`;
}
