import type {
  BillableTenant,
  CreateInvoiceInput,
  Invoice,
  InvoiceListQuery,
  PaymentConfig,
  PaymentConfigInput,
  Subscription,
} from '@shared/schemas/payments';
import { baseApi } from './base.api';

/** Tenant payments: the super administrator's /pagamentostenants and a tenant's /assinatura and blocked menu. */
export const paymentsApi = baseApi.injectEndpoints({
  endpoints: (build) => ({
    getPaymentConfig: build.query<PaymentConfig, void>({
      query: () => '/admin/payments/config',
      providesTags: ['PaymentConfig'],
    }),
    updatePaymentConfig: build.mutation<PaymentConfig, PaymentConfigInput>({
      query: (body) => ({ url: '/admin/payments/config', method: 'PUT', body }),
      invalidatesTags: ['PaymentConfig', 'Invoice'],
    }),
    listBillableTenants: build.query<BillableTenant[], void>({
      query: () => '/admin/payments/tenants',
      providesTags: ['Invoice'],
    }),
    createInvoice: build.mutation<Invoice, CreateInvoiceInput>({
      query: (body) => ({ url: '/admin/invoices', method: 'POST', body }),
      invalidatesTags: ['Invoice'],
    }),
    listAllInvoices: build.query<Invoice[], InvoiceListQuery>({
      query: (params) => ({ url: '/invoices/all', params }),
      providesTags: ['Invoice'],
    }),
    getSubscription: build.query<Subscription, void>({
      query: () => '/subscription',
      providesTags: ['Invoice'],
    }),
  }),
});

export const {
  useGetPaymentConfigQuery,
  useUpdatePaymentConfigMutation,
  useListBillableTenantsQuery,
  useCreateInvoiceMutation,
  useListAllInvoicesQuery,
  useGetSubscriptionQuery,
} = paymentsApi;
