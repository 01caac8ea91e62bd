resource "rootly_custom_field" "probe" {
  label       = "tf-probe region ${var.rev}"
  kind        = "select"
  description = "revision ${var.rev}"
  enabled     = true
  shown       = var.rev == 1 ? ["incident_form"] : ["incident_form", "incident_post_mortem"]
}

# rootly_custom_field_option is left out: the provider types its custom_field_id as a number, and
# Taproot's custom field ids are uuids (docs/forms.md, "Ids are uuids").

resource "rootly_custom_form" "probe" {
  name        = "tf-probe custom form ${var.rev}"
  command     = "tf-probe-${var.rev}"
  description = "revision ${var.rev}"
  enabled     = var.rev == 1
}

resource "rootly_form_field" "probe" {
  name       = "tf-probe placed field ${var.rev}"
  kind       = "custom"
  input_kind = "select"
  shown      = ["web_new_incident_form"]
}

resource "rootly_form_field_option" "probe" {
  form_field_id = rootly_form_field.probe.id
  value         = "yes"
}

resource "rootly_form_field" "condition" {
  name       = "tf-probe condition field"
  kind       = "custom"
  input_kind = "text"
  shown      = ["web_new_incident_form"]
}

resource "rootly_form_set" "probe" {
  name  = "tf-probe placement set ${var.rev}"
  forms = ["web_new_incident_form"]
}

resource "rootly_form_field_placement" "probe" {
  form_field_id      = rootly_form_field.probe.id
  form_set_id        = rootly_form_set.probe.id
  form               = "web_new_incident_form"
  position           = var.rev
  required           = var.rev == 2
  non_editable       = false
  placement_operator = var.rev == 1 ? "and" : "or"
}

resource "rootly_form_field_placement_condition" "probe" {
  form_field_placement_id = rootly_form_field_placement.probe.id
  form_field_id           = rootly_form_field.condition.id
  values                  = ["value ${var.rev}"]
  comparison              = var.rev == 1 ? "equal" : "not_equal"
  conditioned             = "placement"
}

resource "rootly_form_field_position" "probe" {
  form_field_id = rootly_form_field.probe.id
  form          = "web_new_incident_form"
  position      = var.rev
}

resource "rootly_form_set_condition" "probe" {
  form_set_id   = rootly_form_set.probe.id
  form_field_id = rootly_form_field.probe.id
  values        = [rootly_form_field_option.probe.id]
  comparison    = "equal"
}

resource "rootly_incident_permission_set" "probe" {
  name = "tf-probe roles permission set ${var.rev}"
}

resource "rootly_incident_permission_set_boolean" "probe" {
  incident_permission_set_id = rootly_incident_permission_set.probe.id
  kind                       = "publish_to_status_page"
  enabled                    = var.rev == 1
  private                    = false
}

resource "rootly_severity" "probe" {
  name     = "tf-probe permission severity"
  severity = "low"
}

resource "rootly_incident_permission_set_resource" "probe" {
  incident_permission_set_id = rootly_incident_permission_set.probe.id
  kind                       = "severities"
  resource_type              = "Severity"
  resource_id                = rootly_severity.probe.id
  private                    = var.rev == 2
}

# The provider's documented example.
resource "rootly_role" "probe" {
  name                           = "tf-probe role ${var.rev}"
  incidents_permissions          = var.rev == 1 ? ["read", "update"] : ["read"]
  incident_feedbacks_permissions = ["create", "read"]
  services_permissions           = ["read"]
  severities_permissions         = ["read"]
  incident_permission_set_id     = rootly_incident_permission_set.probe.id
}

resource "rootly_on_call_role" "probe" {
  name                            = "tf-probe on-call role ${var.rev}"
  alerts_permissions              = ["create", "update", "read"]
  escalation_policies_permissions = ["create", "read", "update", "delete"]
  schedules_permissions           = var.rev == 1 ? ["read", "update"] : ["read"]
  schedule_override_permissions   = ["create", "update"]
}

# expires_at is written as Taproot answers it (the UTC instant, milliseconds): the provider
# compares it as text.
resource "rootly_api_key" "probe" {
  name        = "tf-probe key ${var.rev}"
  description = "revision ${var.rev}"
  kind        = "organization"
  role_id     = rootly_role.probe.id
  expires_at  = "2030-01-01T00:00:00.000Z"
}
