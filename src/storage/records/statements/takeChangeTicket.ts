import { NamedStatement } from '../../database/NamedStatement.js';

/**
 * A change ticket: a number drawn from records_change_seq, with an advisory lock keyed by it held
 * to the end of the transaction. Every statement that draws change_seq values takes one first, so
 * the ticket is below each number it draws, and readChangeHorizon keeps the change feed's readers
 * below the oldest ticket still held: no reader passes a number whose transaction has not ended.
 * Tickets are distinct, so no two writers ever wait on each other for one. The lock key is the
 * ticket's negation less one, a negative bigint, apart from feedsync's other advisory locks.
 */
const TICKET_LOCK = `pg_advisory_xact_lock(-nextval('records_change_seq') - 1)`;

/** A CTE taking the statement's ticket: materialized and joined to the rows written, so it is taken before their first nextval. */
export const CHANGE_TICKET = `change_ticket as materialized (select ${TICKET_LOCK})`;

/** Takes a ticket to the end of the transaction, ahead of the statements in it that draw change_seq values. */
export const takeChangeTicket = new NamedStatement<Record<string, never>>('feedsync_take_change_ticket_v1', `select ${TICKET_LOCK}`);
