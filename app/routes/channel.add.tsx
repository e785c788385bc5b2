import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useActionData, useLoaderData } from "@remix-run/react";
import { ChannelForm } from "~/components/channels/ChannelForm";
import { channelFormContext, handleChannelForm, newChannelDefaults } from "~/web/channels/channel-form.server";
import { channelConsoleSchema } from "~/domain/channels/channel-console-form";
import { ROLE_ADMIN } from "~/domain/users/roles";
import { formModelLister } from "~/relay/channel-form-models.server";
import { formConstraint } from "~/web/form-constraint.server";
import { requireRole } from "~/web/guards.server";
import { pageTitle } from "~/components/i18n/locale-context";

export const meta: MetaFunction = ({ matches }) => pageTitle(matches, "创建新的渠道");

export async function loader({ request }: LoaderFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  return { ...channelFormContext(), defaults: newChannelDefaults(), constraint: formConstraint(channelConsoleSchema) };
}

export async function action({ request }: ActionFunctionArgs) {
  await requireRole(request, ROLE_ADMIN);
  return handleChannelForm(request, "create", undefined, formModelLister());
}

export default function AddChannelPage() {
  const { defaults, ...context } = useLoaderData<typeof loader>();
  const lastResult = useActionData<typeof action>();
  return <ChannelForm mode="create" lastResult={lastResult as never} defaultValue={defaults} {...context} />;
}
