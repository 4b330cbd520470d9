/**
 * The demo's sample e-commerce data, generated deterministically: the same seed and the same "now" give the
 * same rows. Customers sign up over the past 60 days; orders and page views follow their sign-up.
 */

export type Row = Record<string, string | number>;

export interface DemoData {
  customers: Row[];
  orders: Row[];
  pageviews: Row[];
}

const DEMO_SEED = 20_261_122;
const DAY = 86_400;
const COUNTRIES = ['US', 'US', 'US', 'JP', 'JP', 'GB', 'DE', 'FR', 'CA', 'AU'] as const;
const CHANNELS = ['web', 'web', 'web', 'app', 'app', 'store'] as const;
const CATEGORIES = ['shoes', 'shirts', 'jackets', 'bags', 'accessories'] as const;
const FIRST_NAMES = ['Ann', 'Ben', 'Chloe', 'Dan', 'Eva', 'Finn', 'Gina', 'Hiro', 'Ines', 'Jon', 'Kaori', 'Liam'];
const PATHS = [
  '/',
  '/shoes',
  '/shirts',
  '/jackets',
  '/bags',
  '/accessories',
  '/sale',
  '/cart',
  '/checkout',
  '/account',
];
const DEVICES = ['desktop', 'mobile', 'mobile', 'tablet'] as const;

/** A small, fast, seeded generator of floats in [0, 1) (mulberry32). */
function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

/**
 * About `customerCount * 20` rows: each customer has 0 to 8 orders and 5 to 27 page views, all between its
 * sign-up and `nowSeconds`. Store sign-ups buy more often, as they do.
 */
export function generateDemoData(nowSeconds: number, customerCount = 5_000, seed = DEMO_SEED): DemoData {
  const random = prng(seed);
  const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
  const customers: Row[] = [];
  const orders: Row[] = [];
  const pageviews: Row[] = [];
  for (let i = 1; i <= customerCount; i++) {
    const customerId = `c${String(i).padStart(5, '0')}`;
    const signup = nowSeconds - Math.floor(random() * 60 * DAY);
    const channel = pick(CHANNELS);
    const firstName = pick(FIRST_NAMES);
    customers.push({
      customer_id: customerId,
      email: `${firstName.toLowerCase()}.${i}@example.com`,
      first_name: firstName,
      country: pick(COUNTRIES),
      channel,
      opted_out: random() < 0.05 ? 1 : 0,
      signup_time: signup,
      time: signup,
    });
    const span = Math.max(1, nowSeconds - signup);
    const orderCount = Math.floor(random() * (channel === 'store' ? 9 : 5));
    for (let o = 0; o < orderCount; o++) {
      const at = signup + Math.floor(random() * span);
      orders.push({
        order_id: `o${i}-${o + 1}`,
        customer_id: customerId,
        amount: Math.round((15 + random() * 185) * 100) / 100,
        items: 1 + Math.floor(random() * 4),
        category: pick(CATEGORIES),
        channel: random() < 0.7 ? channel : pick(CHANNELS),
        status: random() < 0.06 ? 'refunded' : 'paid',
        time: at,
      });
    }
    const viewCount = 5 + Math.floor(random() * 23);
    for (let v = 0; v < viewCount; v++) {
      pageviews.push({
        customer_id: customerId,
        path: pick(PATHS),
        device: pick(DEVICES),
        time: signup + Math.floor(random() * span),
      });
    }
  }
  return { customers, orders, pageviews };
}
