/**
 * A stand-in for DNS in the address policy's tests (`OutboundSwitches.resolve`): it answers `first` to the
 * first question and `later` to every other, as a rebinding name server would, and records each question.
 */
export function changingDns(first: string, later: string) {
  const asked: string[] = [];
  const resolve = async (name: string) => {
    asked.push(name);
    return [asked.length === 1 ? first : later];
  };
  return { asked, resolve };
}
