// The variables are filled by the tickets module (farewell and rating messages need them too);
// the messages module reads them from there, so the dependency keeps pointing one way.
export { renderForTicket, variableValues } from '../tickets/ticket-variables';
