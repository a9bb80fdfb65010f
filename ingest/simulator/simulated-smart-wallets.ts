import { AddressBook } from './address-book';
import { DEFAULT_POPULATION } from './market-simulator';

/** The addresses of the simulator's standing population of smart wallets for a seed (the ones it draws early buyers from). */
export function simulatedSmartWallets(seed: number, count = DEFAULT_POPULATION.smartWallets): string[] {
  const book = new AddressBook(seed);
  return Array.from({ length: count }, (_, i) => book.wallet('smart', i));
}
