"""
Drives the hosted API's Python SDK (PyPI `rootly`, module `rootly_sdk`) against a running Taproot
and writes a JSON report of every call it made (to stdout, or to --report).

    python rootly_sdk_check.py --base-url http://127.0.0.1:3000 --token <key> [--spare-user-id <id>] [--webhook-delivery <id>] [--report <file>]

Each served operation (GET /v1/openapi.json) is matched to the SDK's call with the same method and
path, so the served operationIds need not be the reference's. The scenario creates first (bodies
built with the SDK's own models, so its serialization is exercised), then reads, lists, updates and
acts on what it created, and deletes last. Every call is recorded: operation, HTTP status, the
model the SDK parsed the answer into, and the error when the SDK could not parse it. The client
raises on a status the SDK does not document, so a parsed answer of None means the SDK declares no
body for that status. `--spare-user-id` names a user the scenario may delete (the API cannot create
one); `--verify-email=ID:TOKEN` an e-mail address and the verification token its mail would carry
(minted outside the API, as the mailer does); `--webhook-delivery` a webhook delivery to read and
redeliver (the dispatcher writes deliveries, no API creates one).
"""

from __future__ import annotations

import argparse
import hashlib
import importlib
import inspect
import json
import pkgutil
import re
import sys
import traceback
import types
import uuid
from datetime import datetime, timedelta, timezone
from typing import Any

import httpx
import rootly_sdk.api
from rootly_sdk import AuthenticatedClient, models
from rootly_sdk.types import UNSET, Unset

METHODS = ("get", "post", "put", "patch", "delete")


def route_key(method: str, path: str) -> tuple[str, str]:
    """A route without its parameters' names: the SDK names some of them differently."""
    return method.lower(), re.sub(r"\{[^}]*\}", "{}", path)


def sdk_calls() -> dict[tuple[str, str], types.ModuleType]:
    """Every SDK call module by route, read from the request each one builds."""
    calls = {}
    for tag in pkgutil.iter_modules(rootly_sdk.api.__path__):
        package = importlib.import_module(f"rootly_sdk.api.{tag.name}")
        for op in pkgutil.iter_modules(package.__path__):
            module = importlib.import_module(f"rootly_sdk.api.{tag.name}.{op.name}")
            source = inspect.getsource(module._get_kwargs)
            method = re.search(r'"method": "(\w+)"', source)
            url = re.search(r'"url": "([^"]+)"', source)
            if method and url:
                calls[route_key(method.group(1), url.group(1))] = module
    return calls


class NotRun(Exception):
    """A call whose inputs an earlier failed call should have produced."""


class Check:
    def __init__(self, base_url: str, token: str):
        self.base_url = base_url
        # The status of the last answer, also when the SDK then fails to parse it.
        self.last_status: int | None = None
        self.client = self.client_for(token)
        document = httpx.get(f"{base_url}/v1/openapi.json", headers={"Authorization": f"Bearer {token}"}, timeout=30).json()
        calls = sdk_calls()
        self.served: dict[str, dict[str, Any]] = {}
        for path, item in document["paths"].items():
            for method in METHODS:
                if method in item:
                    module = calls.get(route_key(method, path))
                    self.served[item[method]["operationId"]] = {"method": method.upper(), "path": path, "module": module}
        self.calls: list[dict[str, Any]] = []

    def client_for(self, token: str) -> AuthenticatedClient:
        return AuthenticatedClient(
            base_url=self.base_url,
            token=token,
            raise_on_unexpected_status=True,
            timeout=httpx.Timeout(30.0),
            httpx_args={"event_hooks": {"response": [self._seen]}},
        )

    def _seen(self, response: httpx.Response) -> None:
        self.last_status = response.status_code

    def call(self, operation: str, body: dict[str, Any] | None = None, *, model: str | None = None, as_token: Any = UNSET, **params: Any) -> Any:
        """
        Calls the SDK's `sync_detailed` for a served operation and records the outcome; answers the
        parsed model (None when the call failed). `body` is the request document, turned into the
        SDK's body model (`model`, or the one its signature names) with `from_dict`; `as_token`
        calls with another key than the check's.
        """
        served = self.served.get(operation)
        if served is None:
            raise KeyError(f"{operation} is not served")
        module = served["module"]
        record: dict[str, Any] = {"operation": operation, "route": f"{served['method']} {served['path']}"}
        self.calls.append(record)
        if module is None:
            record.update(error="the SDK has no call for this route")
            return None
        record["sdk"] = module.__name__.removeprefix("rootly_sdk.api.")
        self.last_status = None
        try:
            missing = [name for name, value in {**params, "token": as_token}.items() if value is None]
            if missing:
                raise NotRun(f"no {', '.join(missing)}: an earlier call failed")
            if body is not None:
                params["body"] = self._body_model(module, model).from_dict(body)
            client = self.client if as_token is UNSET else self.client_for(as_token)
            response = module.sync_detailed(client=client, **params)
        except NotRun as reason:
            record.update(status=None, error=f"not run: {reason}")
            return None
        except Exception as error:  # the SDK raises whatever its parsing meets
            record.update(status=self.last_status, error=f"{type(error).__name__}: {error}", trace=short_trace(error))
            return None
        parsed = response.parsed
        record.update(status=int(response.status_code), parsed=type(parsed).__name__ if parsed is not None else None)
        if not 200 <= response.status_code < 300:
            record["error"] = f"answered {int(response.status_code)}: {response.content.decode(errors='replace')[:500]}"
            return None
        return parsed

    @staticmethod
    def _body_model(module: types.ModuleType, name: str | None) -> Any:
        if name:
            return getattr(models, name)
        annotation = inspect.signature(module.sync_detailed).parameters["body"].annotation
        options = [t for t in getattr(annotation, "__args__", (annotation,)) if t is not Unset]
        if len(options) != 1:
            raise TypeError(f"{module.__name__}: name one of {[t.__name__ for t in options]} as the body model")
        return options[0]

    def report(self) -> dict[str, Any]:
        called = {c["operation"] for c in self.calls}
        return {
            "served": len(self.served),
            "calls": self.calls,
            "not_exercised": [
                {
                    "operation": op,
                    "route": f"{s['method']} {s['path']}",
                    "reason": "the SDK has no call for this route" if s["module"] is None else "the scenario does not call it",
                }
                for op, s in self.served.items()
                if op not in called
            ],
        }


def short_trace(error: BaseException) -> str:
    """Where in the SDK the error was raised: the last frames, enough to name the model and field."""
    frames = traceback.extract_tb(error.__traceback__)[-3:]
    return " <- ".join(f"{f.name} ({f.filename.split('rootly_sdk/')[-1]}:{f.lineno}): {f.line}" for f in reversed(frames))


def ident(parsed: Any) -> str | None:
    """The id of a parsed single-resource answer."""
    data = getattr(parsed, "data", None)
    return getattr(data, "id", None) if data is not None else None


def doc(type_: str, **attributes: Any) -> dict[str, Any]:
    return {"data": {"type": type_, "attributes": attributes}}


def iso(delta: timedelta = timedelta()) -> str:
    return (datetime.now(timezone.utc) + delta).isoformat()


def scenario(c: Check, spare_user_id: str | None, verify_email: list[str] | None = None, webhook_delivery: str | None = None) -> None:
    run = uuid.uuid4().hex[:8]

    user = ident(c.call("getCurrentUser"))

    # Creates.
    role = ident(c.call("createRole", doc("roles", name=f"SDK role {run}")))
    on_call_role = ident(c.call("createOnCallRole", doc("on_call_roles", name=f"SDK on-call role {run}")))
    created_key = c.call("createApiKey", doc("api_keys", name=f"SDK key {run}", kind="organization", expires_at=iso(timedelta(days=30))))
    api_key = ident(created_key)
    team = ident(c.call("createGroup", doc("groups", name=f"SDK team {run}", color="#047BF8")))
    severity = ident(c.call("createSeverity", doc("severities", name=f"SDK sev {run}", severity="high", color="#FF0000")))
    service = ident(c.call("createService", doc("services", name=f"SDK service {run}", public_description="Payments")))
    environment = ident(c.call("createEnvironment", doc("environments", name=f"SDK env {run}")))
    functionality = ident(c.call("createFunctionality", doc("functionalities", name=f"SDK functionality {run}")))
    # A status page showing the service and functionality, and what goes on it.
    status_page = ident(c.call("createStatusPage", doc("status_pages", title=f"SDK status page {run}", public=True, service_ids=[service], functionality_ids=[functionality])))
    # The SDK types this body as the bare template (StatusPageTemplate); the hosted API takes the document.
    template = ident(
        c.call(
            "createStatusPageTemplate",
            doc("status_page_templates", title="Investigating", body="We are looking into slow checkouts", update_status="investigating"),
            model="NewStatusPageTemplate",
            status_page_id=status_page,
        )
    )
    component_group = ident(c.call("createStatusPageComponentGroup", doc("status_page_component_groups", name=f"SDK component group {run}"), status_page_id=status_page))
    component = ident(
        c.call("createStatusPageComponent", doc("status_page_components", name=f"SDK component {run}", status_page_component_group_id=component_group), status_page_id=status_page)
    )
    announcement = ident(c.call("createStatusPageAnnouncement", doc("status_page_announcements", title="Planned upgrade", body="Checkout is read-only for ten minutes"), status_page_id=status_page))
    page_team = ident(c.call("createStatusPageTeam", doc("status_page_groups", group_id=team), status_page_id=status_page))
    cause = ident(c.call("createCause", doc("causes", name=f"SDK cause {run}")))
    incident_type = ident(c.call("createIncidentType", doc("incident_types", name=f"SDK type {run}")))
    sub_status = ident(c.call("createSubStatus", doc("sub_statuses", name=f"SDK sub-status {run}", parent_status="started")))
    incident_role = ident(c.call("createIncidentRole", doc("incident_roles", name=f"SDK incident role {run}")))
    role_task = ident(c.call("createIncidentRoleTask", doc("incident_role_tasks", task="Page the owner"), incident_role_id=incident_role))
    urgency = ident(c.call("createAlertUrgency", doc("alert_urgencies", name=f"SDK urgency {run}", description="Wake someone")))
    alert_field = ident(c.call("createAlertField", doc("alert_fields", name=f"SDK field {run}")))
    # Alert groups (docs/alert-groups.md): the whole life of one here, so it needs nothing created later.
    by_host = [{"property_field_type": "payload", "property_field_name": "$.host", "property_field_condition_type": "matches_existing_alert"}]
    alert_group = ident(c.call("createAlertGroup", doc("alert_groups", name=f"SDK alert group {run}", time_window=10, conditions=by_host, targets=[{"target_type": "Group", "target_id": team}])))
    c.call("listAlertGroups")
    c.call("getAlertGroup", id=alert_group)
    c.call("updateAlertGroup", doc("alert_groups", description="Storms by host", attributes=[{"json_path": "$.service"}]), id=alert_group)
    c.call("deleteAlertGroup", id=alert_group)
    source = ident(c.call("createAlertsSource", doc("alert_sources", name=f"SDK source {run}", source_type="alertmanager")))
    heartbeat = ident(
        c.call(
            "createHeartbeat",
            doc("heartbeats", name=f"SDK heartbeat {run}", alert_summary="Backups stopped", interval=30, interval_unit="minutes", notification_target_id=team, notification_target_type="Group"),
        )
    )
    payments = {"property_field_type": "payload", "property_field_name": "$.team", "property_field_condition_type": "is_one_of", "property_field_values": ["payments"]}
    alert_route = ident(
        c.call(
            "createAlertRoute",
            doc(
                "alert_routes",
                name=f"SDK route {run}",
                alerts_source_ids=[source],
                rules=[{"name": "Payments", "position": 1, "destinations": [{"target_type": "Service", "target_id": service}], "condition_groups": [{"position": 1, "conditions": [payments]}]}],
            ),
        )
    )
    routing_rule = ident(
        c.call(
            "createAlertRoutingRule",
            doc("alert_routing_rules", name=f"SDK routing rule {run}", alerts_source_id=source, destination={"target_type": "Group", "target_id": team}, conditions=[payments]),
        )
    )
    incident = ident(
        c.call(
            "createIncident",
            doc("incidents", title=f"SDK incident {run}", summary="Checkout fails", severity_id=severity, service_ids=[service], environment_ids=[environment]),
        )
    )
    duplicate = ident(c.call("createIncident", doc("incidents", title=f"SDK duplicate {run}")))
    child = ident(c.call("createIncident", doc("incidents", title=f"SDK child {run}", parent_incident_id=incident)))
    triaged = ident(c.call("createIncident", doc("incidents", title=f"SDK triage {run}")))
    event = ident(c.call("createIncidentEvent", doc("incident_events", event="Rolled back", visibility="internal"), incident_id=incident))
    # Assigned: SDK 3.0.1 cannot parse an action item whose assigned_to is null (README.md).
    action_item = ident(
        c.call(
            "createIncidentActionItem",
            doc("incident_action_items", summary="Add a canary", priority="high", assigned_to_user_id=int(user) if user else None),
            incident_id=incident,
        )
    )
    incident_sub_status = ident(
        c.call("createIncidentSubStatus", doc("incident_sub_statuses", sub_status_id=sub_status, assigned_at=iso()), incident_id=incident)
    )
    status_page_event = ident(
        c.call("createIncidentStatusPage", doc("incident_status_page_events", event="Investigating slow checkouts", status_page_id=status_page), incident_id=incident)
    )
    event_service = ident(
        c.call("createIncidentEventService", doc("incident_event_services", incident_event_id=event, service_id=service, status="partial_outage"), incident_event_id=event)
    )
    event_functionality = ident(
        c.call(
            "createIncidentEventFunctionality",
            doc("incident_event_functionalities", incident_event_id=event, functionality_id=functionality, status="major_outage"),
            incident_event_id=event,
        )
    )
    schedule = ident(
        c.call(
            "createSchedule",
            doc("schedules", name=f"SDK schedule {run}", owner_user_id=int(user) if user else None, owner_group_ids=[team], slack_channel={"id": "C01", "name": "oncall"}, shift_report_enabled=True),
        )
    )
    escalation_policy = ident(
        c.call(
            "createEscalationPolicy",
            doc(
                "escalation_policies",
                name=f"SDK escalation policy {run}",
                repeat_count=1,
                group_ids=[team],
                service_ids=[service],
                business_hours={"days": ["M", "T"], "start_time": "09:00", "end_time": "17:00", "time_zone": "Europe/Paris"},
            ),
        )
    )
    escalation_path = ident(
        c.call(
            "createEscalationPath",
            doc(
                "escalation_paths",
                name=f"SDK escalation path {run}",
                match_mode="match-any-rule",
                initial_delay=5,
                rules=[{"rule_type": "service", "service_ids": [service]}],
                time_restrictions=[{"start_day": "monday", "start_time": "09:00", "end_day": "friday", "end_time": "17:00"}],
                time_restriction_time_zone="Europe/Paris",
            ),
            escalation_policy_id=escalation_policy,
        )
    )
    escalation_level = ident(
        c.call(
            "createEscalationLevel",
            doc(
                "escalation_levels",
                position=1,
                delay=5,
                escalation_policy_path_id=escalation_path,
                notification_target_params=[{"id": team, "type": "team", "team_members": "admins"}, {"id": "C06Q2JK7RQW", "type": "slack_channel"}],
                paging_strategy_configuration_strategy="cycle",
            ),
            escalation_policy_id=escalation_policy,
        )
    )
    # Daily: SDK 3.0.1 serializes every handoff as the daily shape (README.md).
    rotation = ident(
        c.call(
            "createScheduleRotation",
            doc(
                "schedule_rotations",
                name=f"SDK rotation {run}",
                schedule_rotationable_type="ScheduleDailyRotation",
                schedule_rotationable_attributes={"handoff_time": "09:00"},
                time_zone="Europe/Paris",
                active_time_type="same_time",
                active_time_attributes=[{"start_time": "09:00", "end_time": "17:00"}],
            ),
            schedule_id=schedule,
        )
    )
    rotation_user = ident(c.call("createScheduleRotationUser", doc("schedule_rotation_users", user_id=int(user) if user else None), schedule_rotation_id=rotation))
    active_day = ident(
        c.call("createScheduleRotationActiveDay", doc("schedule_rotation_active_days", day_name="M", active_time_attributes=[{"start_time": "09:00", "end_time": "12:00"}]), schedule_rotation_id=rotation)
    )
    override = ident(c.call("createOverrideShift", doc("shifts", user_id=int(user) if user else None, starts_at=iso(timedelta(days=1)), ends_at=iso(timedelta(days=1, hours=8))), schedule_id=schedule))
    shadow = ident(
        c.call(
            "createOnCallShadow",
            doc("on_call_shadows", shadowable_type="User", shadowable_id=user, shadow_user_id=int(user) if user else None, starts_at=iso(timedelta(days=2)), ends_at=iso(timedelta(days=3))),
            schedule_id=schedule,
        )
    )
    # Coverage of the member's shifts on a day ahead (its rotation's version is in force from now): one request per shift, answered as a list.
    coverage = c.call(
        "createShiftCoverageRequest",
        doc("shift_coverage_requests", starts_at=iso(timedelta(days=5)), ends_at=iso(timedelta(days=6)), user_id=int(user) if user else None),
        schedule_id=schedule,
    )
    coverage_request = coverage.data[0].id if coverage is not None and coverage.data else None
    alert = ident(c.call("createAlert", doc("alerts", summary=f"SDK alert {run}", source="api", noise="not_noise")))
    second_alert = ident(c.call("createAlert", doc("alerts", summary=f"SDK alert two {run}", source="api")))
    alert_event = ident(c.call("createAlertEvent", doc("alert_events", kind="note", details="Looked at it"), alert_id=alert))
    email_address = ident(c.call("createUserEmailAddress", doc("user_email_addresses", email=f"sdk-{run}@example.test"), user_id=user))
    phone_number = ident(c.call("createUserPhoneNumber", doc("user_phone_numbers", phone="+14155550100"), user_id=user))
    notification_rule = ident(
        c.call(
            "createUserNotificationRule",
            doc("user_notification_rules", enabled_contact_types=["email", "sms"], delay=0, user_email_address_id=email_address, user_sms_number_id=phone_number),
            user_id=user,
        )
    )
    # Outgoing webhooks: a secret a custom header of the endpoint names.
    secret_name = f"SDK_TOKEN_{run}"
    secret = ident(c.call("createSecret", doc("secrets", name=secret_name, secret="receiver-token", kind="built_in")))
    webhooks_endpoint = ident(
        c.call(
            "createWebhooksEndpoint",
            doc(
                "webhooks_endpoints",
                name=f"SDK endpoint {run}",
                url="https://receiver.example.test/rootly",
                event_types=["incident.created", "alert.created"],
                custom_headers=[{"name": "Authorization", "value": f"Bearer {{{{ secrets.{secret_name} }}}}"}],
            ),
        )
    )
    # A custom domain's DNS challenge (its verification is Taproot's own action, not the SDK's).
    verified_domain = ident(c.call("createVerifiedDomain", doc("verified_domains", domain=f"sdk-{run}.example.test")))
    for operation, type_ in (
        ("bulkUpsertGroups", "teams"),
        ("bulkUpsertServices", "services"),
        ("bulkUpsertEnvironments", "environments"),
        ("bulkUpsertFunctionalities", "functionalities"),
    ):
        c.call(operation, {"entities": [{"external_id": f"sdk-{type_}-{run}", "name": f"SDK bulk {type_} {run}"}]})

    # Reads and updates.
    c.call("listUsers")
    c.call("getUser", id=user)
    c.call("updateUser", doc("users", first_name="Sam"), id=user)
    c.call("listAudits")
    c.call("getUserEmailAddresses", user_id=user)
    c.call("showUserEmailAddress", id=email_address)
    c.call("updateUserEmailAddress", doc("user_email_addresses", email=f"sdk-{run}-renamed@example.test"), id=email_address)
    c.call("resendUserEmailAddressVerification", id=email_address)
    if verify_email:
        c.call("verifyUserEmailAddress", id=verify_email[0], token=verify_email[1])
    c.call("getUserPhoneNumbers", user_id=user)
    c.call("showUserPhoneNumber", id=phone_number)
    c.call("updateUserPhoneNumber", doc("user_phone_numbers", phone="+442071838750"), id=phone_number)
    c.call("listUserNotificationRules", user_id=user)
    c.call("getUserNotificationRule", id=notification_rule)
    c.call("updateUserNotificationRule", doc("user_notification_rules", delay=5), id=notification_rule)
    for list_op, get_op, update_op, id_, type_, attributes in (
        ("listRoles", "getRole", "updateRole", role, "roles", {"name": f"SDK role {run} renamed"}),
        ("listOnCallRoles", "getOnCallRole", "updateOnCallRole", on_call_role, "on_call_roles", {"name": f"SDK on-call role {run} renamed"}),
        ("listApiKeys", "getApiKey", "updateApiKey", api_key, "api_keys", {"name": f"SDK key {run} renamed"}),
        ("listGroups", "getGroup", "updateGroup", team, "groups", {"description": "Owns checkout"}),
        ("listSeverities", "getSeverity", "updateSeverity", severity, "severities", {"description": "Customers notice"}),
        ("listServices", "getService", "updateService", service, "services", {"description": "Takes payments"}),
        ("listEnvironments", "getEnvironment", "updateEnvironment", environment, "environments", {"description": "Live"}),
        ("listFunctionalities", "getFunctionality", "updateFunctionality", functionality, "functionalities", {"description": "Pay"}),
        ("listCauses", "getCause", "updateCause", cause, "causes", {"description": "A bad deploy"}),
        ("listIncidentTypes", "getIncidentType", "updateIncidentType", incident_type, "incident_types", {"description": "Outage"}),
        ("listSubStatuses", "getSubStatus", "updateSubStatus", sub_status, "sub_statuses", {"description": "Waiting on a vendor"}),
        ("listIncidentRoles", "getIncidentRole", "updateIncidentRole", incident_role, "incident_roles", {"summary": "Runs the call"}),
        ("listAlertUrgencies", "getAlertUrgency", "updateAlertUrgency", urgency, "alert_urgencies", {"description": "Page now"}),
        ("listAlertFields", "getAlertField", "updateAlertField", alert_field, "alert_fields", {"name": f"SDK field {run} renamed"}),
        ("listAlertSources", "getAlertsSource", "updateAlertsSource", source, "alert_sources", {"name": f"SDK source {run} renamed"}),
        ("listHeartbeats", "getHeartbeat", "updateHeartbeat", heartbeat, "heartbeats", {"description": "Nightly backup"}),
        ("listAlertRoutes", "getAlertRoute", "updateAlertRoute", alert_route, "alert_routes", {"name": f"SDK route {run} renamed"}),
        ("listAlertRoutingRules", "getAlertRoutingRule", "updateAlertRoutingRule", routing_rule, "alert_routing_rules", {"name": f"SDK routing rule {run} renamed"}),
        ("listIncidents", "getIncident", "updateIncident", incident, "incidents", {"summary": "Checkout fails for some"}),
        ("listAlerts", "getAlert", "updateAlert", alert, "alerts", {"description": "Seen by the SDK"}),
        ("listSchedules", "getSchedule", "updateSchedule", schedule, "schedules", {"description": "Follows the sun", "shift_report_day_of_week": "friday"}),
        ("listEscalationPolicies", "getEscalationPolicy", "updateEscalationPolicy", escalation_policy, "escalation_policies", {"repeat_count": 2, "business_hours": None}),
        # update_secret requires the name; a new value under it (headers name it, so it is not renamed).
        ("listSecrets", "getSecret", "updateSecret", secret, "secrets", {"name": secret_name, "secret": "receiver-token-2"}),
        ("listWebhooksEndpoints", "getWebhooksEndpoint", "updateWebhooksEndpoint", webhooks_endpoint, "webhooks_endpoints", {"name": f"SDK endpoint {run} renamed", "enabled": False}),
        ("listStatusPages", "getStatusPage", "updateStatusPage", status_page, "status_pages", {"description": "Checkout and payments", "show_uptime_last_days": 30}),
    ):
        c.call(list_op)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    c.call("listStatusPageTemplates", status_page_id=status_page)
    c.call("getStatusPageTemplate", id=template)
    # The SDK's update model requires title and body.
    c.call("updateStatusPageTemplate", doc("status_page_templates", title="Investigating", body="Checkouts are slow; we are on it"), model="UpdateStatusPageTemplate", id=template)
    statuses = c.call("listStatuses")
    c.call("getStatus", id=statuses.data[0].id if statuses is not None and statuses.data else None)
    c.call("listStatusPageTeams", status_page_id=status_page)
    c.call("getStatusPageTeam", status_page_id=status_page, id=page_team)
    c.call("updateStatusPageTeam", doc("status_page_groups", permission_level="edit_and_publish"), status_page_id=status_page, id=page_team)
    c.call("listVerifiedDomains")
    c.call("getVerifiedDomain", id=verified_domain)
    c.call("patchAlertRoute", doc("alert_routes", enabled=False), id=alert_route)
    c.call("pingHeartbeat", heartbeat_id=heartbeat)
    c.call("listEscalationPaths", escalation_policy_id=escalation_policy)
    c.call("getEscalationPath", id=escalation_path)
    c.call("updateEscalationPath", doc("escalation_paths", name=f"SDK escalation path {run} renamed", notification_type="quiet"), id=escalation_path)
    path_level = ident(
        c.call(
            "createEscalationLevelPaths",
            doc("escalation_levels", position=2, delay=1, notification_target_params=[{"id": str(user), "type": "user"}] if user else []),
            escalation_policy_path_id=escalation_path,
        )
    )
    c.call("listEscalationLevelsPaths", escalation_policy_path_id=escalation_path)
    c.call("listEscalationLevels", escalation_policy_id=escalation_policy)
    c.call("getEscalationLevel", id=escalation_level)
    c.call("updateEscalationLevel", doc("escalation_levels", delay=10, paging_strategy_configuration_schedule_strategy="everyone"), id=escalation_level)
    # A key rotates only itself.
    token = getattr(getattr(getattr(created_key, "data", None), "attributes", None), "token", None)
    c.call("rotateApiKey", doc("api_keys", grace_period_seconds=60), id=api_key, as_token=token)

    for list_op, parent, get_op, update_op, id_, type_, attributes in (
        ("listIncidentRoleTasks", {"incident_role_id": incident_role}, "getIncidentRoleTask", "updateIncidentRoleTask", role_task, "incident_role_tasks", {"description": "Within 5 minutes"}),
        ("listIncidentEvents", {"incident_id": incident}, "getIncidentEvent", "updateIncidentEvent", event, "incident_events", {"event": "Rolled back v42"}),
        ("listIncidentActionItems", {"incident_id": incident}, "getIncidentActionItem", "updateIncidentActionItem", action_item, "incident_action_items", {"status": "in_progress"}),
        ("listIncidentSubStatuses", {"incident_id": incident}, "getIncidentSubStatus", "updateIncidentSubStatus", incident_sub_status, "incident_sub_statuses", {"assigned_at": iso()}),
        ("listStatusPageComponentGroups", {"status_page_id": status_page}, "getStatusPageComponentGroup", "updateStatusPageComponentGroup", component_group, "status_page_component_groups", {"collapsed_by_default": True}),
        ("listStatusPageComponents", {"status_page_id": status_page}, "getStatusPageComponent", "updateStatusPageComponent", component, "status_page_components", {"description": "Card payments"}),
        ("listStatusPageAnnouncements", {"status_page_id": status_page}, "getStatusPageAnnouncement", "updateStatusPageAnnouncement", announcement, "status_page_announcements", {"body": "Checkout is read-only for five minutes"}),
        ("listIncidentStatusPages", {"incident_id": incident}, "getIncidentStatusPages", "updateIncidentStatusPage", status_page_event, "incident_status_page_events", {"status": "identified"}),
        ("listIncidentEventServices", {"incident_event_id": event}, "getIncidentEventService", "updateIncidentEventService", event_service, "incident_event_services", {"status": "operational"}),
        ("listIncidentEventFunctionalities", {"incident_event_id": event}, "getIncidentEventFunctionality", "updateIncidentEventFunctionality", event_functionality, "incident_event_functionalities", {"status": "operational"}),
        ("listAlertEvents", {"alert_id": alert}, "getAlertEvent", "updateAlertEvent", alert_event, "alert_events", {"details": "Looked at it twice"}),
        # update_schedule_rotation requires the type.
        ("listScheduleRotations", {"schedule_id": schedule}, "getScheduleRotation", "updateScheduleRotation", rotation, "schedule_rotations", {"schedule_rotationable_type": "ScheduleDailyRotation", "name": f"SDK rotation {run} renamed"}),
        ("listScheduleRotationUsers", {"schedule_rotation_id": rotation}, "getScheduleRotationUser", "updateScheduleRotationUser", rotation_user, "schedule_rotation_users", {"position": 2}),
        ("listScheduleRotationActiveDays", {"schedule_rotation_id": rotation}, "getScheduleRotationActiveDay", "updateScheduleRotationActiveDay", active_day, "schedule_rotation_active_days", {"day_name": "T"}),
        ("listOverrideShifts", {"schedule_id": schedule}, "getOverrideShift", "updateOverrideShift", override, "shifts", {"user_id": int(user) if user else None}),
        ("listOnCallShadows", {"schedule_id": schedule}, "getOnCallShadow", "updateOnCallShadow", shadow, "on_call_shadows", {"ends_at": iso(timedelta(days=4))}),
    ):
        c.call(list_op, **parent)
        c.call(get_op, id=id_)
        c.call(update_op, doc(type_, **attributes), id=id_)
    # Shifts the schedule engine computes from the rotation, its member and the override.
    week = {"from_": iso(), "to": iso(timedelta(days=7))}
    c.call("listShifts", **week, include="user", schedule_ids=[schedule], user_ids=[int(user)] if user else None, pagesize=50)
    c.call("getScheduleShifts", id=schedule, **week)
    # Who is on call for the policy, its levels' targets resolved (schedules through their shifts).
    c.call("listOncalls", include="user", since=iso(), until=iso(timedelta(days=7)), time_zone="Europe/London", filterescalation_policy_ids=escalation_policy)
    c.call("listShiftCoverageRequests", schedule_id=schedule)
    c.call("getShiftCoverageRequest", id=coverage_request)
    # A delivery the test seeded (its endpoint's own): read, listed under its endpoint, redelivered.
    delivery = c.call("getWebhooksDelivery", id=webhook_delivery) if webhook_delivery else None
    delivery_endpoint = getattr(getattr(getattr(delivery, "data", None), "attributes", None), "endpoint_id", None)
    c.call("listWebhooksDeliveries", endpoint_id=delivery_endpoint)
    c.call("deliverWebhooksDelivery", id=webhook_delivery)
    c.call("listAllIncidentActionItems")
    c.call("listAllAlertEvents")

    # The incident's own tasks.
    c.call("addSubscribersToIncident", doc("incidents", user_ids=[user]), id=incident)
    c.call("removeSubscribersToIncident", doc("incidents", user_ids=[user]), id=incident)
    c.call("assignUserToIncident", doc("incidents", incident_role_id=incident_role, user_id=user), id=incident)
    c.call("removeAssignedUserFromIncident", doc("incidents", incident_role_id=incident_role, user_id=user), id=incident)
    c.call("attachAlert", doc("alerts", alert_ids=[second_alert]), incident_id=incident)
    c.call("listIncidentAlerts", incident_id=incident)
    # The SDK types this body as ResolveIncident (the reference's), which cannot carry the duplicate's id.
    c.call("markAsDuplicateIncident", doc("incidents", duplicate_incident_id=incident), model="DuplicateIncident", id=duplicate)
    c.call("unmarkAsDuplicateIncident", id=duplicate)
    c.call("detachFromParentIncident", id=child)
    c.call("mitigateIncident", doc("incidents", mitigation_message="Rolled back"), id=incident)
    c.call("resolveIncident", doc("incidents", resolution_message="Fixed"), id=incident)
    c.call("restartIncident", doc("incidents"), id=incident)
    c.call("triageIncident", doc("incidents"), id=triaged)
    c.call("cancelIncident", doc("incidents", cancellation_message="A false alarm"), id=triaged)

    # The alert's own tasks.
    # Acknowledging and snoozing need an alert that pages someone: escalating pages the policy's first level.
    c.call("escalateAlert", doc("alerts", escalation_policy_id=escalation_policy, escalation_policy_level=1), id=alert)
    c.call("acknowledgeAlert", doc("alerts"), id=alert)
    c.call("snoozeAlert", doc("alerts", delay_minutes=10), id=alert)
    c.call("resolveAlert", doc("alerts", resolution_message="Quiet again", resolve_related_incidents=False), id=alert)
    c.call("getReceipt", id=ingest_receipt(c, source))

    # Deletes, children before their parents.
    for operation, type_ in (
        ("bulkDeleteGroups", "teams"),
        ("bulkDeleteServices", "services"),
        ("bulkDeleteEnvironments", "environments"),
        ("bulkDeleteFunctionalities", "functionalities"),
    ):
        c.call(operation, {"external_ids": [f"sdk-{type_}-{run}"]}, model=f"BulkDestroy{type_.capitalize()}Type0")
    c.call("deleteAlertEvent", id=alert_event)
    c.call("deleteIncidentEventFunctionality", id=event_functionality)
    c.call("deleteIncidentEventService", id=event_service)
    c.call("deleteIncidentStatusPage", id=status_page_event)
    c.call("deleteIncidentSubStatus", id=incident_sub_status)
    c.call("deleteIncidentActionItem", id=action_item)
    c.call("deleteIncidentEvent", id=event)
    for id_ in (child, triaged, duplicate):
        c.call("deleteIncident", id=id_)
    c.call("deleteIncident", id=incident)
    c.call("deleteIncidentRoleTask", id=role_task)
    # The page's records before the page (its events are gone with their incidents), the page before its services and team.
    c.call("deleteStatusPageTeam", status_page_id=status_page, id=page_team)
    for operation, id_ in (
        ("deleteStatusPageAnnouncement", announcement),
        ("deleteStatusPageComponent", component),
        ("deleteStatusPageComponentGroup", component_group),
        ("deleteStatusPageTemplate", template),
        ("deleteStatusPage", status_page),
    ):
        c.call(operation, id=id_)
    for operation, id_ in (
        ("deleteScheduleRotationActiveDay", active_day),
        ("deleteScheduleRotationUser", rotation_user),
        ("deleteScheduleRotation", rotation),
        ("deleteOverrideShift", override),
        ("deleteOnCallShadow", shadow),
        ("deleteShiftCoverageRequest", coverage_request),
        ("deleteSchedule", schedule),
        ("deleteEscalationLevel", escalation_level),
        ("deleteEscalationLevel", path_level),
        ("deleteEscalationPath", escalation_path),
        ("deleteEscalationPolicy", escalation_policy),
    ):
        c.call(operation, id=id_)
    for operation, id_ in (
        ("deleteIncidentRole", incident_role),
        ("deleteSubStatus", sub_status),
        ("deleteIncidentType", incident_type),
        ("deleteCause", cause),
        ("deleteFunctionality", functionality),
        ("deleteEnvironment", environment),
        ("deleteService", service),
        ("deleteSeverity", severity),
        ("deleteAlertRoutingRule", routing_rule),
        ("deleteAlertRoute", alert_route),
        ("deleteHeartbeat", heartbeat),
        ("deleteAlertsSource", source),
        # The endpoint first: its custom header names the secret.
        ("deleteVerifiedDomain", verified_domain),
        ("deleteWebhooksEndpoint", webhooks_endpoint),
        ("deleteSecret", secret),
        ("deleteAlertField", alert_field),
        ("deleteAlertUrgency", urgency),
        ("deleteGroup", team),
        ("deleteApiKey", api_key),
        ("deleteOnCallRole", on_call_role),
        ("deleteRole", role),
    ):
        c.call(operation, id=id_)
    # A rule first: the contact methods it names stay while it does.
    for operation, id_ in (
        ("deleteUserNotificationRule", notification_rule),
        ("deleteUserPhoneNumber", phone_number),
        ("deleteUserEmailAddress", email_address),
    ):
        c.call(operation, id=id_)
    if spare_user_id:
        c.call("deleteUser", id=spare_user_id)


def ingest_receipt(c: Check, source: str | None) -> str | None:
    """
    A receipt to read: one Alertmanager alert sent to the source's inbound route (a Taproot route
    the SDK has no call for), authenticated by the source's secret as Alertmanager is.
    """
    if source is None:
        return None
    secret = c.client.get_httpx_client().get(f"/v1/alert_sources/{source}").json()["data"]["attributes"]["secret"]
    payload = {
        "version": "4",
        "status": "firing",
        "alerts": [{"status": "firing", "labels": {"alertname": "SdkCheck"}, "annotations": {}, "fingerprint": hashlib.sha1(source.encode()).hexdigest()[:16]}],
    }
    answer = httpx.post(f"{c.base_url}/v1/alert_sources/{source}/alerts", params={"secret": secret}, json=payload, timeout=30)
    if answer.status_code != 202:
        return None
    return answer.json()["meta"]["receipts"][0]["id"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.strip().splitlines()[0])
    parser.add_argument("--base-url", required=True)
    parser.add_argument("--token", required=True)
    parser.add_argument("--spare-user-id", help="a user the scenario may delete")
    # One value after "=": a token may begin with "-", which argparse would take for an option.
    parser.add_argument("--verify-email", type=lambda v: v.split(":", 1), metavar="ID:TOKEN", help="an e-mail address and a token that verifies it")
    parser.add_argument("--webhook-delivery", help="a webhook delivery to read and redeliver")
    parser.add_argument("--report", help="the file to write the report to (default stdout)")
    args = parser.parse_args()
    check = Check(args.base_url.rstrip("/"), args.token)
    scenario(check, args.spare_user_id, args.verify_email, args.webhook_delivery)
    report = json.dumps(check.report(), indent=2) + "\n"
    if args.report:
        with open(args.report, "w", encoding="utf-8") as file:
            file.write(report)
    else:
        sys.stdout.write(report)
    return 0


if __name__ == "__main__":
    sys.exit(main())
