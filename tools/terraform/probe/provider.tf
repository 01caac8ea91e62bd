# The provider reads ROOTLY_API_URL and ROOTLY_API_TOKEN; `rev` changes every updatable value.
terraform {
  required_providers {
    rootly = { source = "rootlyhq/rootly" }
  }
}

variable "rev" {
  type    = number
  default = 1
}
