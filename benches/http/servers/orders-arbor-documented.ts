/**
 * The validated write path's route with its contract in a doc comment (`--mix validate`, the
 * `arbor-doc` contender): the same constraints as `../orders-schema.ts`, checked by `validate: true`.
 * A file of its own, imported only by that contender, so the code-first contender never sees this block.
 */
import type { Application, RouteHandler } from '../../../ts/src/app/index.js';

/**
 * @api POST /orders/:shop
 * @param {string enum=["web","app","store"]} channel.query.required - Sales channel
 * @param {integer minimum=1 maximum=5} priority.query.required - Priority
 * @param {string maxLength=32} coupon.query.optional - Coupon code
 * @param {string minLength=1 maxLength=64} id.body.required - Order id
 * @param {string minLength=1 maxLength=200} customer.body.required - Customer name
 * @param {string format=email} email.body.required - Customer e-mail
 * @param {string pattern=^[A-Z]{3}$} currency.body.required - ISO 4217 currency
 * @param {number minimum=0} total.body.required - Order total
 * @param {boolean} express.body.required - Express delivery
 * @param {string format=date-time} placedAt.body.required - When the order was placed
 * @param {BenchAddress} address.body.required - Where to deliver
 * @param {array<string maxLength=32> maxItems=10} tags.body.required - Labels
 * @param {array<BenchOrderItem> maxItems=10000} items.body.required - Order lines
 * @response 200 The order's summary
 */
export function registerDocumented(app: Application, handler: RouteHandler): void {
  app.post('/orders/:shop', handler);
}

/**
 * @schema BenchAddress
 * @property {string minLength=1 maxLength=200} line1.required - Street
 * @property {string minLength=1 maxLength=100} city.required - City
 * @property {string minLength=1 maxLength=16} postcode.required - Postcode
 * @property {string pattern=^[A-Z]{2}$} country.required - ISO 3166 country
 */

/**
 * @schema BenchOrderItem
 * @property {string minLength=1 maxLength=32} sku.required - Stock-keeping unit
 * @property {integer minimum=1} qty.required - Quantity
 * @property {number minimum=0} price.required - Unit price
 */
